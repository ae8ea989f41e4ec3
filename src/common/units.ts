import { Dec, decimalString } from './money';

/*
 * Token quantities: the register counts decimal tokens, a token contract counts integer units
 * (10^decimals units a token). The conversions, once, for both sides of the token ledger.
 */

const scale = (decimals: number) => new Dec(10).pow(decimals);

/** A decimal quantity in units (an excess of decimals is rounded half up, as viem's parseUnits does). */
export function toUnits(quantity: string, decimals: number): bigint {
  return BigInt(new Dec(quantity).mul(scale(decimals)).toDecimalPlaces(0, Dec.ROUND_HALF_UP).toFixed());
}

/** Units as the register's canonical decimal string (money.ts, `decimalString`). */
export function fromUnits(units: bigint, decimals: number): string {
  return decimalString(new Dec(units.toString()).div(scale(decimals)));
}
