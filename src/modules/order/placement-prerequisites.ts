import type { DomainError } from '../../common/errors';
import { Dec } from '../../common/money';
import { DeliveryMode } from '../distributor';
import { shareClassNotTrading } from '../share-class';
import { noLiveNav, zeroNav } from './one-step.errors';
import { investorNotGranted, noDefaultChain, noDistributorWallet, noInvestorWallet } from './two-step.errors';

/*
 * What placing, and then pricing, an order asks of its parties once they exist, each rule as a
 * function that answers the refusal (the documented error) or null. Placement throws what they
 * answer (`refuse`); the onboarding checklist (onboarding.service.ts) asks the same functions
 * what is still missing, so the console can never tell ops a set-up is complete that an order
 * would then be refused for.
 */

/** Throws a rule's refusal, if it has one. */
export function refuse(refusal: DomainError | null): void {
  if (refusal) throw refusal;
}

/** A share class that is not `active` takes no new orders (409). */
export function tradingRefusal(shareClass: { id: string; status: string }): DomainError | null {
  return shareClass.status !== 'active' ? shareClassNotTrading(shareClass.id, shareClass.status) : null;
}

/** Without a primary token a share class has no `defaultChainId` to deliver on, nor token decimals to price in. */
export function defaultChainRefusal(shareClass: { id: string; primaryChainId: string | null; primaryTokenDecimals: number | null }): DomainError | null {
  return shareClass.primaryChainId === null || shareClass.primaryTokenDecimals === null ? noDefaultChain(shareClass.id) : null;
}

/**
 * The investor's prerequisites of a two-step subscription, set by operations, in the order they
 * are checked: the investor's grant of the share class, the share class's default chain, the
 * investor's wallet in use on it.
 */
export function investorPrerequisiteRefusal(parties: {
  shareClass: { id: string; primaryChainId: string | null; primaryTokenDecimals: number | null };
  investorGranted: boolean;
  investorWallet: string | null;
}): DomainError | null {
  if (!parties.investorGranted) return investorNotGranted(parties.shareClass.id);
  const chain = defaultChainRefusal(parties.shareClass);
  if (chain) return chain;
  return parties.investorWallet ? null : noInvestorWallet(parties.shareClass.primaryChainId!);
}

/** `hold` delivery lands the tokens in the distributor's own wallet on the chain: it must have one. */
export function holdWalletRefusal(deliveryMode: DeliveryMode | string, distributorWallet: string | null, chainId: string): DomainError | null {
  return deliveryMode === DeliveryMode.hold && !distributorWallet ? noDistributorWallet(chainId) : null;
}

/** An order is priced at the live NAV: there must be one, and not zero. */
export function pricingRefusal(nav: { close: string } | null): DomainError | null {
  if (!nav) return noLiveNav();
  return new Dec(nav.close).isZero() ? zeroNav() : null;
}
