import { badRequest } from './errors';
import { columnMisfit, Dec, isDecimalLiteral, MAX_INTEGER_DIGITS, type DecimalColumn } from './money';

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
  return cleanText(value, field);
}

/** An optional string: empty counts as absent. */
export function optional(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return undefined;
  if (typeof value !== 'string') throw badRequest(`${field} must be a string`);
  return cleanText(value, field);
}

/*
 * Hygiene of everything received from outside, whatever the field: the doors (REST router,
 * GraphQL) walk their whole input with `inputProblem` before anything runs, and `required` /
 * `optional` apply `textProblem` again, so a string reaching a service by another way is held to
 * the same rule. Each problem is a message naming the field.
 */

/** Longest string accepted in any field (ids, names, URLs, descriptions). */
export const MAX_TEXT_LENGTH = 4096;
/** Deepest nesting of objects and arrays accepted in a body or a variable. */
export const MAX_INPUT_DEPTH = 16;
/** Epoch ms of 9999-12-31T23:59:59.999Z: the last instant every layer (JS, PostgreSQL, ISO-8601) can write. */
export const MAX_EPOCH_MS = 253_402_300_799_999;

/*
 * C0 controls but tab, line feed and carriage return (free text keeps its lines), DEL and C1
 * controls. PostgreSQL refuses NUL outright; the others corrupt logs, CSV exports and terminals.
 */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/** What is wrong with a string received in `field`, or null. Linear in the string's length. */
export function textProblem(value: string, field: string): string | null {
  if (value.length > MAX_TEXT_LENGTH) return `${field} must be at most ${MAX_TEXT_LENGTH} characters`;
  if (CONTROL_CHARACTER.test(value)) return `${field} must not contain control characters`;
  // A lone UTF-16 surrogate cannot be stored as UTF-8 (JSON lets `"\ud800"` through).
  // `isWellFormed` is in Node 20 but not in the ES2022 lib the project compiles against.
  if (!(value as string & { isWellFormed(): boolean }).isWellFormed()) return `${field} must be valid Unicode text`;
  return null;
}

/** What is wrong with a number received in `field`, or null: it must fit the decimal columns. */
export function numberProblem(value: number, field: string): string | null {
  if (!Number.isFinite(value) || Math.abs(value) >= 10 ** MAX_INTEGER_DIGITS) return `${field} is out of range`;
  return null;
}

/**
 * The first problem of a JSON value received as `field` (a body, a query, a variable), or null.
 * Nested fields are named by their own key (`amount`, not `input.amount`), as the description's
 * messages name them.
 */
export function inputProblem(value: unknown, field: string, depth = 0): string | null {
  if (typeof value === 'string') return textProblem(value, field);
  if (typeof value === 'number') return numberProblem(value, field);
  if (value === null || typeof value !== 'object') return null;
  if (depth >= MAX_INPUT_DEPTH) return `${field} is nested too deeply`;
  if (Array.isArray(value)) {
    for (const item of value) {
      const problem = inputProblem(item, field, depth + 1);
      if (problem) return problem;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const problem = textProblem(key, 'field name') ?? inputProblem(item, key, depth + 1);
    if (problem) return problem;
  }
  return null;
}

/** `value` itself when `textProblem` finds nothing; otherwise 400 with the problem. */
export function cleanText(value: string, field: string): string {
  const problem = textProblem(value, field);
  if (problem) throw badRequest(problem);
  return value;
}

/**
 * An e-mail address, deliberately loose: one `@` with something before it, no white space, a
 * domain of two or more non-empty dot-separated labels, at most 254 characters (RFC 5321). Checked
 * by scanning, not by a backtracking pattern, so a long address costs linear time.
 */
export function emailAddress(value: unknown, field = 'email'): string {
  const address = required(value, field).trim();
  if (address.length > 254) throw badRequest(`${field} must be at most 254 characters`);
  const at = address.indexOf('@');
  const domain = address.slice(at + 1);
  const valid = at > 0 && domain.indexOf('@') === -1 && !/\s/.test(address) && domain.split('.').length >= 2 && !domain.split('.').includes('');
  if (!valid) throw badRequest(`${field} must be a valid email address`);
  return address;
}

/*
 * Decimals are received for a column (`DECIMAL_COLUMN`, `VOLUME_COLUMN` in money.ts, the ones the
 * entities declare): each rule takes that column and refuses what it cannot hold, before
 * PostgreSQL would round it away. `<field> is out of range` past its digits before the point,
 * `<field> must have at most <scale> decimal places` past its scale.
 */

/** A required decimal >= 0 for `column`: `<field> must be >= 0` when negative. Returned as a decimal string. */
export function nonNegativeDecimal(value: unknown, field: string, column: DecimalColumn): string {
  return notNegative(requiredDecimal(value, field, column), field).toFixed();
}

/** A required decimal for `column` (`<field> is required`, `<field> must be a number`), any sign. */
export function requiredDecimal(value: unknown, field: string, column: DecimalColumn, notANumber = 'must be a number'): Dec {
  if (value === undefined || value === null || value === '') throw badRequest(`${field} is required`);
  if (!isDecimalLiteral(value)) throw badRequest(`${field} ${notANumber}`);
  const misfit = columnMisfit(value as string | number, column);
  if (misfit === 'range') throw badRequest(`${field} is out of range`);
  if (misfit === 'scale') throw badRequest(`${field} must have at most ${column.scale} decimal places`);
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
  if (n > MAX_EPOCH_MS) throw badRequest(`${field} must be epoch milliseconds from 0 to ${MAX_EPOCH_MS}`);
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

/** A required decimal string for `column` (any sign), e.g. a 7-day change. */
export function decimal(value: unknown, field: string, column: DecimalColumn): string {
  return requiredDecimal(value, field, column, 'must be a decimal number').toFixed();
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
