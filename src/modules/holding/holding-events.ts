import { payloadText } from '../../common/payload-text';
import { shownId } from '../../common/ids';
import { decimalString } from '../../common/money';

/**
 * `holding.changed` as a webhook event type: sent to the holding's own distributor only (every
 * event carries it), for one investor's holding. Additive: a webhook receives only the one type
 * it registered, so order webhooks never see it. A transfer between holders is two events, one
 * per side, each to its own distributor; the counterparty is named only within one distributor
 * (chain-holders.ts `sideOf`). Documented in rest-compat/openapi/.
 */
export const HOLDING_EVENTS = ['holding.changed'] as const;

export function isHoldingEvent(type: string): boolean {
  return (HOLDING_EVENTS as readonly string[]).includes(type);
}

export interface HoldingCounterparty {
  /** Null: a wallet the register does not know. */
  investorId: string | null;
  wallet: string;
}

/** The `data` of a `holding.changed` webhook body. Amounts are decimal strings. */
export interface HoldingWebhookData {
  eventId: string;
  investorId: string;
  distributorId: string;
  shareClassId: string;
  /** Signed: tokens in positive, out negative. */
  change: string;
  balance: string;
  /** What moved it: `order`, `adjustment`, `transfer` (on chain, outside any order). */
  cause: 'order' | 'adjustment' | 'transfer';
  orderId: string | null;
  transferHash: string | null;
  chainId: string | null;
  blockNumber: string | null;
  /** The investor's own wallet a transfer moved (null otherwise). */
  wallet: string | null;
  direction: 'in' | 'out' | null;
  /** A transfer's other side: null when another distributor's investor holds it (hidden), or for no transfer. */
  counterparty: HoldingCounterparty | null;
  /** A transfer undone because its block left the chain. */
  reorg: boolean;
  occurredAt: number;
  test: boolean;
}

export function holdingWebhookData(event: { eventId: string; occurredAt: Date; distributorId: string; payload: Record<string, unknown> }): HoldingWebhookData {
  const p = event.payload;
  const str = payloadText;
  const cp = p.counterparty as HoldingCounterparty | null | undefined;
  return {
    eventId: event.eventId,
    investorId: String(p.investorId),
    distributorId: shownId(event.distributorId, 'distributor', 'R'),
    shareClassId: String(p.shareClassId),
    change: decimalString(String(p.change)),
    balance: decimalString(String(p.balance)),
    cause: p.orderId ? 'order' : p.adjustment ? 'adjustment' : 'transfer',
    orderId: str(p.orderId),
    transferHash: str(p.transferHash),
    chainId: str(p.chainId),
    blockNumber: str(p.blockNumber),
    wallet: str(p.wallet),
    direction: p.direction === 'in' || p.direction === 'out' ? p.direction : null,
    counterparty: cp ? { investorId: cp.investorId ?? null, wallet: cp.wallet } : null,
    reorg: p.reorg === true,
    occurredAt: event.occurredAt.getTime(),
    test: false,
  };
}
