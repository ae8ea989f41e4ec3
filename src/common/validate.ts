import { DomainError, InvalidInput } from './errors';
import { bicProblem, countryProblem, currencyProblem, ibanProblem, isinProblem, leiProblem } from './identifiers';
import { columnMisfit, Dec, isDecimalLiteral, MAX_INTEGER_DIGITS, type DecimalColumn } from './money';

/*
 * Input rules with the description's exact messages. Services call these; transports never
 * validate on their own, so a rule answers the same through REST and GraphQL.
 */

/** `<field> <words>`, refused naming the field, so that a form can show `words` beside it. */
export function refused(field: string, words: string, message = `${field} ${words}`): InvalidInput {
  return new InvalidInput(message, [{ path: field, message: words }]);
}

/**
 * The refusals of one input, collected so that it is answered for every wrong field at once
 * rather than one per submission. An input reader takes each field through `take` and calls
 * `settle` before it uses what it read (`readInput` does both). The order of the takes is the
 * order the fields were checked in when the first refusal ended the check: the first problem, and
 * so the message REST answers with, stays the one the description fixes.
 */
export class Problems {
  private readonly refusals: InvalidInput[] = [];

  /**
   * `rule()`'s answer; when the rule refuses the input (a 400), its refusal is kept under the
   * path it names (or `path`) and the answer is undefined — meaningless, since `settle` throws
   * before it can be used. Any other failure is thrown as it is.
   */
  take<T>(path: string, rule: () => T): T {
    try {
      return rule();
    } catch (err) {
      if (!(err instanceof DomainError) || err.code !== 'BAD_REQUEST') throw err;
      this.refusals.push(err instanceof InvalidInput ? err : new InvalidInput(err.message, [{ path, message: wordsAfter(err.message, path) }]));
      return undefined as T;
    }
  }

  /** Throws every refusal kept as one InvalidInput, whose message is the first's. */
  settle(): void {
    if (this.refusals.length)
      throw new InvalidInput(
        this.refusals[0].message,
        this.refusals.flatMap((r) => r.fields),
      );
  }
}

/** What `read` reads from an input, once every field it takes is right; all refusals at once otherwise. */
export function readInput<T>(read: (problems: Problems) => T): T {
  const problems = new Problems();
  const out = read(problems);
  problems.settle();
  return out;
}

/** A message `<path> <words>` as its words alone (the field is shown beside them). */
function wordsAfter(message: string, path: string): string {
  return message.startsWith(`${path} `) ? message.slice(path.length + 1) : message;
}

/** A required string: missing, null or empty (after trimming) is `<field> is required`. */
export function required(value: unknown, field: string): string {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    throw refused(field, `is required`);
  }
  if (typeof value !== 'string') throw refused(field, `must be a string`);
  return cleanText(value, field);
}

/** An optional string: empty counts as absent. */
export function optional(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return undefined;
  if (typeof value !== 'string') throw refused(field, `must be a string`);
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
// eslint-disable-next-line no-control-regex -- matching control characters is this pattern's purpose
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
  if (problem) throw new InvalidInput(problem, [{ path: field, message: wordsAfter(problem, field) }]);
  return value;
}

/**
 * An e-mail address, deliberately loose: one `@` with something before it, no white space, a
 * domain of two or more non-empty dot-separated labels, at most 254 characters (RFC 5321). Checked
 * by scanning, not by a backtracking pattern, so a long address costs linear time.
 */
export function emailAddress(value: unknown, field = 'email'): string {
  const address = required(value, field).trim();
  if (address.length > 254) throw refused(field, `must be at most 254 characters`);
  const at = address.indexOf('@');
  const domain = address.slice(at + 1);
  const valid = at > 0 && domain.indexOf('@') === -1 && !/\s/.test(address) && domain.split('.').length >= 2 && !domain.split('.').includes('');
  if (!valid) throw refused(field, `must be a valid email address`);
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
  if (value === undefined || value === null || value === '') throw refused(field, `is required`);
  if (!isDecimalLiteral(value)) throw refused(field, `${notANumber}`);
  const misfit = columnMisfit(value as string | number, column);
  if (misfit === 'range') throw refused(field, `is out of range`);
  if (misfit === 'scale') throw refused(field, `must have at most ${column.scale} decimal places`);
  return new Dec(value as string | number);
}

/** `<field> must be >= 0`; apart from `requiredDecimal` where other checks come between the two. */
export function notNegative(value: Dec, field: string): Dec {
  if (value.isNegative()) throw refused(field, `must be >= 0`);
  return value;
}

/** An optional epoch-ms timestamp (a number, or a string of digits as sent in a query string). */
export function optionalEpochMs(value: unknown, field: string): Date | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (value instanceof Date) return value;
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) throw refused(field, `must be epoch milliseconds`);
  if (n > MAX_EPOCH_MS) throw refused(field, `must be epoch milliseconds from 0 to ${MAX_EPOCH_MS}`);
  return new Date(n);
}

/*
 * Provisioning inputs (ops console). The description gives no messages for these, so each
 * names the field and what it must be.
 */

/** A required integer within [min, max]: `<field> must be an integer from <min> to <max>`. */
export function intInRange(value: unknown, field: string, min: number, max: number): number {
  if (value === undefined || value === null) throw refused(field, `is required`);
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw refused(field, `must be an integer from ${min} to ${max}`);
  }
  return value;
}

/** A fee or rate in basis points: an integer from 0 to 10000 (100%). */
export function bps(value: unknown, field: string): number {
  return intInRange(value, field, 0, 10_000);
}

/** An ISO 4217 currency code: three upper-case letters, one of the list. */
export function currencyCode(value: unknown, field: string): string {
  const code = required(value, field).trim();
  if (!/^[A-Z]{3}$/.test(code)) throw refused(field, `must be an ISO 4217 code of three upper-case letters`);
  return standardChecked(code, field, currencyProblem);
}

/*
 * Identifiers a standard defines (src/common/identifiers.ts), for records ops provision (issuer,
 * share class, bank details). Read upper-cased without spaces, as they are stored; refused as
 * `<field>: <what is wrong> (<standard>)`, e.g. `lei: check digits do not match (ISO 17442)`.
 */

function standardChecked(value: string, field: string, problemOf: (v: string) => string | null): string {
  const problem = problemOf(value);
  if (problem) throw refused(field, problem, `${field}: ${problem}`);
  return value;
}

const identifier =
  (problemOf: (v: string) => string | null) =>
  (value: unknown, field: string): string =>
    standardChecked(required(value, field).replace(/\s+/g, '').toUpperCase(), field, problemOf);

/** A Legal Entity Identifier (ISO 17442, MOD 97-10 check digits). */
export const lei = identifier(leiProblem);
/** An ISIN (ISO 6166, Luhn check digit). */
export const isin = identifier(isinProblem);
/** An IBAN (ISO 13616, MOD 97-10 check digits). */
export const iban = identifier(ibanProblem);
/** A BIC / SWIFT code (ISO 9362). */
export const bic = identifier(bicProblem);
/** A country, ISO 3166-1 alpha-2 (`LU`). */
export const countryCode = identifier(countryProblem);

/** A numeric EVM chain id, kept as a string (e.g. `1`, `11155111`). */
export function chainId(value: unknown, field = 'chainId'): string {
  const id = required(value, field).trim();
  if (!/^[1-9]\d{0,19}$/.test(id)) throw refused(field, `must be a numeric EVM chain id`);
  return id;
}

/** An EVM address: `0x` and 40 hex digits. Stored as given (checksum case is kept). */
export function evmAddress(value: unknown, field: string): string {
  const address = required(value, field).trim();
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw refused(field, `must be an EVM address (0x and 40 hex digits)`);
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
  if (!/^[a-z][a-z_]{0,31}$/.test(s)) throw refused(field, `must be a lower-case word such as active`);
  return s;
}

/** A user's search text as a LIKE pattern that matches it literally anywhere (`%`, `_` escaped). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
