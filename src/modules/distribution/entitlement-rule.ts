import Decimal from 'decimal.js';
import { Dec, decimalString } from '../../common/money';

/** Cash is paid in whole cents (the class's currency, two decimals). */
export const CASH_DECIMALS = 2;

/** A holder's gross entitlement: the basis (token-days, or the record date's balance) times the rate, unrounded. */
export const grossOf = (basis: Decimal.Value, rate: Decimal.Value): Decimal => new Dec(basis).mul(rate);

/**
 * THE rounding rule (docs/income.md): each holder is paid their gross entitlement rounded DOWN —
 * cash to whole cents; reinvested as tokens, gross ÷ NAV rounded down to the token's decimals,
 * worth tokens × NAV. Nobody is ever paid more than their entitlement, and what rounding keeps
 * back (the residue, Σ gross − Σ paid) stays in the fund, where it raises the NAV for every
 * holder; it is reported on the distribution.
 */
export function payOut(
  gross: Decimal.Value,
  how: { cash: true } | { cash: false; nav: Decimal.Value; decimals: number },
): { amount: string; tokens: string | null } {
  const g = new Dec(gross);
  if (how.cash) return { amount: decimalString(g.toDecimalPlaces(CASH_DECIMALS, Decimal.ROUND_DOWN)), tokens: null };
  const tokens = g.div(how.nav).toDecimalPlaces(how.decimals, Decimal.ROUND_DOWN);
  return { amount: decimalString(tokens.mul(how.nav)), tokens: decimalString(tokens) };
}

/** Σ gross − Σ paid: what rounding kept in the fund. */
export function residueOf(gross: Decimal.Value[], paid: Decimal.Value[]): string {
  const sum = (xs: Decimal.Value[]) => xs.reduce<Decimal>((s, x) => s.plus(x), new Dec(0));
  return decimalString(sum(gross).minus(sum(paid)));
}
