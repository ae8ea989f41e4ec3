import Decimal from 'decimal.js';
import { applyBps, Dec } from '../../common/money';

/**
 * Pricing of orders, in decimal arithmetic only. A two-step subscription is priced at creation
 * exactly as the description's formula says, with no rounding, because clients verify these
 * numbers against it (12345 at 15 bps is 18.5175):
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
  const amount = new Dec(p.amount);
  const fees = applyBps(amount, p.feesSubBps);
  const nav = p.nav !== null && new Dec(p.nav).greaterThan(0) ? new Dec(p.nav) : null;
  return {
    amountFeesTotal: fees.toFixed(),
    amountPayable: amount.plus(fees).toFixed(),
    amountTokensEstimated: nav ? tokensForAmount(amount, nav, p.tokenDecimals) : null,
    nav: nav ? nav.toFixed() : null,
  };
}

/**
 * Tokens an amount buys at a NAV, rounded down to the token's decimals: never promise a fraction
 * of a token that cannot be minted. Used for the two-step estimate and one-step settlement alike.
 */
export function tokensForAmount(amount: Decimal.Value, nav: Decimal.Value, tokenDecimals: number): string {
  return new Dec(amount).div(nav).toDecimalPlaces(tokenDecimals, Decimal.ROUND_DOWN).toFixed();
}

/** Fiat a number of tokens redeems for at a NAV, rounded down to the currency's minor unit. */
export function payoutForTokens(tokens: Decimal.Value, nav: Decimal.Value, currency: string): string {
  return new Dec(tokens).mul(nav).toDecimalPlaces(minorUnits(currency), Decimal.ROUND_DOWN).toFixed();
}

/** Minor units by currency code, remembered: building an Intl.NumberFormat costs ~100 µs of CPU. */
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
