import Decimal from 'decimal.js';
import { applyBps, Dec, decimalString } from '../../common/money';

/**
 * Pricing of orders, in decimal arithmetic only: the one place the fees are computed, for both
 * flows and both surfaces. A subscription is priced at creation exactly as the description's
 * formula says, with no rounding, because clients verify these numbers against it (12345 at 15
 * bps is 18.5175); a two-step subscription also gets its estimate:
 * - `amountFeesTotal` = amountSubscription × feesSubBps / 10000;
 * - `amountPayable` = amountSubscription + amountFeesTotal;
 * - `amountTokensEstimated` = amountSubscription / NAV, rounded down to the primary token's
 *   decimals (never promise a fraction of a token that cannot be minted); null when unpriced
 *   (no live NAV, or a NAV that is not positive).
 */
export interface PricingInput {
  amount: string;
  feesSubBps: number;
  nav: string | null;
  tokenDecimals: number;
}

export interface Pricing {
  amountFeesTotal: string;
  amountPayable: string;
  amountTokensEstimated: string | null;
  nav: string | null;
}

export function priceSubscription(p: PricingInput): Pricing {
  const nav = p.nav !== null && new Dec(p.nav).greaterThan(0) ? new Dec(p.nav) : null;
  return {
    ...subscriptionFees(p.amount, p.feesSubBps),
    amountTokensEstimated: nav ? tokensForAmount(p.amount, nav, p.tokenDecimals) : null,
    nav: nav ? nav.toFixed() : null,
  };
}

/**
 * The subscription fee, on top of the amount, whichever flow or door placed the order (the share
 * class's `feesSubBps` is "applied at order creation"): `amountFeesTotal` = amount × feesSubBps /
 * 10000, unrounded; `amountPayable` = amount + amountFeesTotal. The amount itself buys the tokens.
 */
export function subscriptionFees(amount: Decimal.Value, feesSubBps: number): { amountFeesTotal: string; amountPayable: string } {
  const fees = applyBps(amount, feesSubBps);
  return { amountFeesTotal: fees.toFixed(), amountPayable: new Dec(amount).plus(fees).toFixed() };
}

/**
 * A redemption priced at a NAV, whichever flow or door placed it: the gross value is tokens × NAV;
 * the fee (`amountFeesTotal`) is gross × feesRedBps / 10000, unrounded like the subscription fee;
 * the proceeds paid out are gross − fee, rounded down to the currency's minor unit (never pay a
 * fraction of a cent that cannot be paid).
 */
export function priceRedemption(
  tokens: Decimal.Value,
  nav: Decimal.Value,
  feesRedBps: number,
  currency: string,
): { amountFeesTotal: string; proceeds: string } {
  const gross = new Dec(tokens).mul(nav);
  const fees = applyBps(gross, feesRedBps);
  return { amountFeesTotal: fees.toFixed(), proceeds: gross.minus(fees).toDecimalPlaces(minorUnits(currency), Decimal.ROUND_DOWN).toFixed() };
}

/**
 * Tokens an amount buys at a NAV, rounded down to the token's decimals: never promise a fraction
 * of a token that cannot be minted. Used for the two-step estimate and one-step settlement alike.
 */
export function tokensForAmount(amount: Decimal.Value, nav: Decimal.Value, tokenDecimals: number): string {
  return new Dec(amount).div(nav).toDecimalPlaces(tokenDecimals, Decimal.ROUND_DOWN).toFixed();
}

/** Minor units by currency code, remembered: building an Intl.NumberFormat per order is costly (docs/benchmarks.md). */
const MINOR_UNITS = new Map<string, number>();
/** Currency codes come from requests: the memo stays bounded whatever they send. */
const MINOR_UNITS_MAX = 512;

/** Minor-unit digits of a currency: ISO 4217 through Intl, 6 for codes Intl does not know. */
export function minorUnits(currency: string): number {
  const known = MINOR_UNITS.get(currency);
  if (known !== undefined) return known;
  let digits: number;
  try {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    digits = 6;
  }
  if (MINOR_UNITS.size < MINOR_UNITS_MAX) MINOR_UNITS.set(currency, digits);
  return digits;
}

/** The fields a one-step order's settlement price is written to (the Order entity has them). */
export interface SettlementPriced {
  /** 'subscription' or 'redemption' */
  type: string;
  amount?: string | null;
  tokenCount?: string | null;
  currency?: string | null;
  feesRedBps?: number | null;
  settlementTokens?: string | null;
  settlementAmount?: string | null;
  amountFeesTotal?: string | null;
  settlementNav?: string | null;
  nav?: string | null;
  navPublishedAt?: Date | null;
}

/**
 * A one-step order priced at a NAV: a subscription's tokens are its amount at the NAV, rounded
 * down to the token's decimals; a redemption's proceeds are its tokens at the NAV less the
 * redemption fee (`priceRedemption`). The one rule for acceptance (the live NAV) and for a
 * dealing date's settlement (that date's NAV: "final tokens are computed at settlement").
 */
export function priceAtNav(order: SettlementPriced, nav: { close: string; publishedAt: Date }, tokenDecimals: number, shareClassCurrency: string): void {
  const price = new Dec(nav.close);
  if (order.type === 'subscription') {
    order.settlementTokens = tokensForAmount(order.amount!, price, tokenDecimals);
    order.settlementAmount = decimalString(order.amount!);
  } else {
    const tokens = order.tokenCount!;
    order.settlementTokens = decimalString(tokens);
    const priced = priceRedemption(tokens, price, order.feesRedBps ?? 0, order.currency ?? shareClassCurrency);
    order.amountFeesTotal = priced.amountFeesTotal;
    order.settlementAmount = priced.proceeds;
  }
  order.settlementNav = decimalString(price);
  order.nav = order.settlementNav;
  order.navPublishedAt = nav.publishedAt;
}
