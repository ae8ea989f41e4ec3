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
  if (value === undefined || value === null || value === '') throw badRequest(`${field} is required`);
  if (!isDecimalLiteral(value)) throw badRequest(`${field} must be a number`);
  const d = new Dec(value as string | number);
  if (d.isNegative()) throw badRequest(`${field} must be >= 0`);
  return d.toFixed();
}

/** An optional epoch-ms timestamp (a number, or a string of digits as sent in a query string). */
export function optionalEpochMs(value: unknown, field: string): Date | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (value instanceof Date) return value;
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) throw badRequest(`${field} must be epoch milliseconds`);
  return new Date(n);
}
