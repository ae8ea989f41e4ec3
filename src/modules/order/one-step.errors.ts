import { badRequest, conflict } from '../../common/errors';

export const tokenCountExceedsHoldings = () => badRequest('tokenCount exceeds holdings');
export const noLongerCancellable = () => conflict('order is no longer cancellable');
/** Ops decided or settled an order that is not in a state the step starts from (`from`, the transition table's). */
export const wrongStatus = (action: string) => (status: string, from: string[]) =>
  conflict(`Cannot ${action} order in status "${status}" (only "${from.join('" or "')}")`);
export const walletRequiredBeforeSettlement = () => conflict('chainId and walletAddress are required (on the order or the investor profile) before settlement');
export const noTokenOnChain = (chainId: string) => conflict(`share class has no token on chain ${chainId}`);
export const noLiveNav = () => conflict('No NAV published');
export const zeroNav = () => conflict('NAV is zero; the order cannot be priced');
