import { badRequest } from './errors';
import { Dec, isDecimalLiteral } from './money';

/*
 * Input rules with the description's exact messages. Services call these; transports never
 * validate on their own, so a rule answers the same through REST and GraphQL.
 */

/** A required string: missing, null or empty (after trimming) is `<field> is required`. */
export function required(value: unknown, field: string): string {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    throw badRequest(`${field} is required`);
  }
  if (typeof value !== 'string') throw badRequest(`${field} must be a string`);
  return value;
}

/** An optional string: empty counts as absent. */
export function optional(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return undefined;
  if (typeof value !== 'string') throw badRequest(`${field} must be a string`);
  return value;
}

/** A required decimal >= 0: `<field> must be >= 0` when negative. Returned as a decimal string. */
export function nonNegativeDecimal(value: unknown, field: string): string {
  return notNegative(requiredDecimal(value, field), field).toFixed();
}

/** A required decimal (`<field> is required`, `<field> must be a number`), any sign. */
export function requiredDecimal(value: unknown, field: string): Dec {
  if (value === undefined || value === null || value === '') throw badRequest(`${field} is required`);
  if (!isDecimalLiteral(value)) throw badRequest(`${field} must be a number`);
  return new Dec(value as string | number);
}

/** `<field> must be >= 0`; apart from `requiredDecimal` where other checks come between the two. */
export function notNegative(value: Dec, field: string): Dec {
  if (value.isNegative()) throw badRequest(`${field} must be >= 0`);
  return value;
}

/** An optional epoch-ms timestamp (a number, or a string of digits as sent in a query string). */
export function optionalEpochMs(value: unknown, field: string): Date | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (value instanceof Date) return value;
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) throw badRequest(`${field} must be epoch milliseconds`);
  return new Date(n);
}

/*
 * Provisioning inputs (ops console). The description gives no messages for these, so each
 * names the field and what it must be.
 */

/** A required integer within [min, max]: `<field> must be an integer from <min> to <max>`. */
export function intInRange(value: unknown, field: string, min: number, max: number): number {
  if (value === undefined || value === null) throw badRequest(`${field} is required`);
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw badRequest(`${field} must be an integer from ${min} to ${max}`);
  }
  return value;
}

/** A fee or rate in basis points: an integer from 0 to 10000 (100%). */
export function bps(value: unknown, field: string): number {
  return intInRange(value, field, 0, 10_000);
}

/** An ISO 4217 currency code: three upper-case letters. */
export function currencyCode(value: unknown, field: string): string {
  const code = required(value, field).trim();
  if (!/^[A-Z]{3}$/.test(code)) throw badRequest(`${field} must be an ISO 4217 code of three upper-case letters`);
  return code;
}

/** A numeric EVM chain id, kept as a string (e.g. `1`, `11155111`). */
export function chainId(value: unknown, field = 'chainId'): string {
  const id = required(value, field).trim();
  if (!/^[1-9]\d{0,19}$/.test(id)) throw badRequest(`${field} must be a numeric EVM chain id`);
  return id;
}

/** An EVM address: `0x` and 40 hex digits. Stored as given (checksum case is kept). */
export function evmAddress(value: unknown, field: string): string {
  const address = required(value, field).trim();
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw badRequest(`${field} must be an EVM address (0x and 40 hex digits)`);
  return address;
}

/** A required decimal string (any sign), e.g. a 7-day change. */
export function decimal(value: unknown, field: string): string {
  if (value === undefined || value === null || value === '') throw badRequest(`${field} is required`);
  if (!isDecimalLiteral(value)) throw badRequest(`${field} must be a decimal number`);
  return new Dec(value as string | number).toFixed();
}

/** An optional field being updated: absent or empty clears it (null in the column). */
export function cleared(value: string | undefined): string {
  return (value?.trim() ?? null) as string;
}

/** A lifecycle status word (`active`, `suspended`, `closed` …): lower-case letters and `_`. */
export function statusWord(value: unknown, field = 'status'): string {
  const s = required(value, field).trim();
  if (!/^[a-z][a-z_]{0,31}$/.test(s)) throw badRequest(`${field} must be a lower-case word such as active`);
  return s;
}

/** A user's search text as a LIKE pattern that matches it literally anywhere (`%`, `_` escaped). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
