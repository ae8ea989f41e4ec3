import type Decimal from 'decimal.js';
import type { ServiceContext } from '../../access/service-context';
import { Dec } from '../../common/money';
import type { NavService } from '../nav';
import { tokensForAmount } from './order.pricing';

/**
 * The tokens a subscription of `amount` would buy at the live NAV (the fee is on top of the
 * amount), which the eligibility check weighs against a rule set's limits at placement; null
 * without a live NAV (acceptance, which prices the order, checks them then).
 */
export async function estimatedTokens(
  ctx: ServiceContext,
  navs: NavService,
  shareClass: { id: string; primaryTokenDecimals: number | null },
  amount: Decimal.Value,
): Promise<Decimal | null> {
  const nav = await navs.latestRecord(ctx, shareClass.id);
  if (!nav || !new Dec(nav.close).greaterThan(0)) return null;
  return new Dec(tokensForAmount(amount, nav.close, shareClass.primaryTokenDecimals ?? 18));
}
