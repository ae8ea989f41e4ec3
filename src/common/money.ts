import Decimal from 'decimal.js';

/**
 * Money, NAVs, fees and token quantities are decimals, never binary floats. PostgreSQL returns
 * `numeric` columns as strings; they stay strings until arithmetic needs a Decimal.
 */
export const Dec = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_EVEN });
export type Dec = Decimal;

/** Canonical decimal string: no exponent, no trailing zeros past the point. */
export function decimalString(value: Decimal.Value): string {
  // A plain literal, as every `numeric` column arrives, is made canonical by trimming its zeros,
  // without a Decimal per value (docs/benchmarks.md). Anything else (exponents, leading zeros, -0)
  // goes through Decimal, which defines the canonical form.
  if (typeof value === 'string') {
    const m = PLAIN_DECIMAL.exec(value);
    if (m) {
      const [, sign, int, fraction = ''] = m;
      let end = fraction.length;
      while (end > 0 && fraction.charCodeAt(end - 1) === 48) end--;
      if (end > 0) return `${sign}${int}.${fraction.slice(0, end)}`;
      if (!(sign && int === '0')) return `${sign}${int}`;
    }
  }
  return new Dec(value).toFixed();
}

const PLAIN_DECIMAL = /^(-?)(0|[1-9]\d*)(?:\.(\d+))?$/;

/** A decimal as a JSON number where the description types the field as a number. */
export function decimalNumber(value: Decimal.Value): number {
  // A plain literal parses to the same double as through Decimal (which keeps every digit and
  // parses its own text), without a Decimal per value: a page of orders has hundreds (docs/benchmarks.md).
  if (typeof value === 'string' && PLAIN_DECIMAL.test(value)) return Number(value);
  return new Dec(value).toNumber();
}

/** `amount * bps / 10000`, e.g. 10 bps of 1000 is 1. */
export function applyBps(amount: Decimal.Value, bps: number): Decimal {
  return new Dec(amount).mul(bps).div(10_000);
}

/** True for a finite decimal literal (as sent in JSON or stored in `numeric`). */
export function isDecimalLiteral(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'string' || value.trim() === '') return false;
  return /^-?\d+(\.\d+)?$/.test(value.trim());
}

/**
 * A `numeric(precision, scale)` column as the entities declare it: a decimal received for it must
 * fit both its digits before the point (precision − scale) and after it (scale). PostgreSQL would
 * round a longer fraction silently (`1e-30` tokens stored as `0`), so every decimal input names the
 * column it is written to and is refused when it does not fit (src/common/validate.ts).
 */
export interface DecimalColumn {
  readonly precision: number;
  readonly scale: number;
}

/** Amounts, token quantities, NAVs, fees and balances: `numeric(38,18)`. */
export const DECIMAL_COLUMN = { precision: 38, scale: 18 } as const satisfies DecimalColumn;
/** A NAV's traded volume: `numeric(38,8)`. */
export const VOLUME_COLUMN = { precision: 38, scale: 8 } as const satisfies DecimalColumn;

/**
 * Digits a decimal may have before the point in every decimal column: 20. A larger value is
 * refused as out of range where it comes in, before the database would refuse it.
 */
export const MAX_INTEGER_DIGITS = DECIMAL_COLUMN.precision - DECIMAL_COLUMN.scale;

/** True when a decimal literal's integer part fits `MAX_INTEGER_DIGITS`. */
export function fitsDecimalColumns(value: string | number): boolean {
  return new Dec(value).abs().lt(new Dec(10).pow(MAX_INTEGER_DIGITS));
}

/** Why a decimal does not fit `column` (`range`: too many digits before the point; `scale`: after it), or null. */
export function columnMisfit(value: Decimal.Value, column: DecimalColumn): 'range' | 'scale' | null {
  const d = new Dec(value);
  if (d.abs().gte(new Dec(10).pow(column.precision - column.scale))) return 'range';
  if (d.decimalPlaces() > column.scale) return 'scale';
  return null;
}
