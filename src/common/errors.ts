/**
 * The one error table of the gateway.
 *
 * A domain error carries a code and the exact message clients are written against
 * (spec/api-description.md, "Messages by condition"). Each code has one GraphQL
 * `extensions.code` and one HTTP status; both transports read them from here, so a rule never
 * answers differently depending on the door a request came through.
 */
export const ERROR_TABLE = {
  BAD_REQUEST: { graphql: 'BAD_USER_INPUT', http: 400 },
  UNAUTHENTICATED: { graphql: 'UNAUTHENTICATED', http: 401 },
  FORBIDDEN: { graphql: 'FORBIDDEN', http: 403 },
  NOT_FOUND: { graphql: 'NOT_FOUND', http: 404 },
  CONFLICT: { graphql: 'CONFLICT', http: 409 },
  PAYLOAD_TOO_LARGE: { graphql: 'PAYLOAD_TOO_LARGE', http: 413 },
  RATE_LIMITED: { graphql: 'RATE_LIMITED', http: 429 },
  UPSTREAM_REJECTED: { graphql: 'UPSTREAM_REJECTED', http: 422 },
  /** Well formed, but cannot be processed as sent (an Idempotency-Key reused for another request). */
  UNPROCESSABLE: { graphql: 'UNPROCESSABLE', http: 422 },
  UPSTREAM_UNAVAILABLE: { graphql: 'UPSTREAM_UNAVAILABLE', http: 503 },
  SERVICE_UNAVAILABLE: { graphql: 'SERVICE_UNAVAILABLE', http: 503 },
  INTERNAL: { graphql: 'INTERNAL_SERVER_ERROR', http: 500 },
} as const;

export type ErrorCode = keyof typeof ERROR_TABLE;

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** When the same request may be tried again (REST: `Retry-After`; GraphQL: `extensions.retryAfter`). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'DomainError';
  }

  get httpStatus(): number {
    return ERROR_TABLE[this.code].http;
  }
}

/** One refused field of an input: its path as sent (`details.isin`) and what is wrong, in words. */
export interface FieldProblem {
  readonly path: string;
  readonly message: string;
}

/**
 * An input refused for every field found wrong at once (src/common/validate.ts `Problems`):
 * GraphQL lists them in `extensions.fields`; the message is the first problem's own sentence, the
 * one REST's `errorMsg` has always carried.
 */
export class InvalidInput extends DomainError {
  constructor(
    message: string,
    readonly fields: readonly FieldProblem[],
  ) {
    super('BAD_REQUEST', message);
  }
}

/** Too many attempts: refused until `retryAfterSeconds` have passed (REST: 429 with `Retry-After`). */
export class RateLimited extends DomainError {
  constructor(
    override readonly retryAfterSeconds: number,
    message = 'too many attempts, retry later',
  ) {
    super('RATE_LIMITED', message, retryAfterSeconds);
  }
}

export const badRequest = (message: string) => new DomainError('BAD_REQUEST', message);
export const notFound = (message: string) => new DomainError('NOT_FOUND', message);
export const conflict = (message: string) => new DomainError('CONFLICT', message);
export const forbidden = (message: string) => new DomainError('FORBIDDEN', message);
export const unauthenticated = (message: string) => new DomainError('UNAUTHENTICATED', message);

/** The message shown for failures we did not foresee; the detail goes to the log only. */
export const INTERNAL_MESSAGE = 'internal server error';
export const UNAVAILABLE_MESSAGE = 'service temporarily unavailable';

/** PostgreSQL SQLSTATE codes the gateway gives a domain meaning to. */
const PG_CODES: Record<string, ErrorCode> = {
  '23505': 'CONFLICT', // unique_violation
  '23503': 'NOT_FOUND', // foreign_key_violation: a referenced record is missing
  '40001': 'CONFLICT', // serialization_failure
  '40P01': 'CONFLICT', // deadlock_detected
  '22P02': 'BAD_REQUEST', // invalid_text_representation
  '22003': 'BAD_REQUEST', // numeric_value_out_of_range
  // Backstops of the input rules at the doors (src/common/validate.ts): a value that still
  // reaches the database in a shape it cannot store is the caller's mistake, not a 500.
  '22021': 'BAD_REQUEST', // character_not_in_repertoire (a NUL in text)
  '22008': 'BAD_REQUEST', // datetime_field_overflow
  '22007': 'BAD_REQUEST', // invalid_datetime_format
  '54000': 'BAD_REQUEST', // program_limit_exceeded (e.g. a value too large for its index)
};

/**
 * Unique constraints that are a domain rule, answered as the rule is rather than `record already
 * exists`: a writer that raced past the service's own check (two concurrent requests) gets the
 * answer the check gives the later one.
 */
const CONSTRAINT_ANSWERS: Record<string, { code: ErrorCode; message: string }> = {
  // One address, one holder (address_claim, src/modules/investor/address-claim.entity.ts; the check: wallet-custody.ts, takenAddress).
  address_claim_pkey: { code: 'CONFLICT', message: 'address is a wallet of another holder' },
};

/**
 * Seconds a client waits before retrying when the database is away: a failover or a restarted
 * pooler is back within seconds, and the pool opens a fresh connection for the next request.
 */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

/**
 * The database, or the way to it, is gone or busy: the request did not fail for what it asked,
 * and the same request may succeed in a moment. SQLSTATE classes and codes (PostgreSQL
 * "Appendix A"), the socket errors of node:net, and the messages node-postgres, knex/tarn and
 * PGlite's socket server raise without a code.
 */
const UNAVAILABLE_SQLSTATE_CLASSES = ['08', '53']; // connection_exception; insufficient_resources (53300 too_many_connections, 53100 disk_full, 53200 out_of_memory…)
const UNAVAILABLE_CODES = new Set([
  '57P01', // admin_shutdown: pg_terminate_backend, a server stopping
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up, in recovery
  '57P05', // idle_session_timeout
  '57014', // query_canceled: a statement timeout
  '55P03', // lock_not_available: a lock timeout
  // Refusals at connect time: a database that refuses is as away as one that is gone.
  '3D000', // invalid_catalog_name: the database does not exist (dropped, renamed, not yet restored)
  '28000', // invalid_authorization_specification: no pg_hba entry, a role that may not log in
  '28P01', // invalid_password: mid-way through a credential rotation
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  'ERR_SOCKET_CLOSED',
  'ERR_STREAM_DESTROYED',
]);
// Matched at the start of a message or after knex's "<sql> - " prefix.
const UNAVAILABLE_MESSAGES = [
  'Connection terminated', // node-postgres: "… unexpectedly", "… due to connection timeout", plain
  'Client has encountered a connection error and is not queryable', // node-postgres
  'Client was closed and is not queryable', // node-postgres
  'timeout expired', // node-postgres: connectionTimeoutMillis
  'Query read timeout', // node-postgres
  'Knex: Timeout acquiring a connection', // knex: "… The pool is probably full. …"
  'Unable to acquire a connection', // knex, while its pool is being destroyed
  'Connection ended unexpectedly',
  // knex, for the statements of a transaction whose connection died under it (the transaction
  // rolled back with the connection); a transaction used after its own commit says the same.
  'Transaction query already complete',
].map((m) => new RegExp(`(?:^|- )${m.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
// viem's, for a chain node that does not answer (a chain that is away is a 503 too, issue 28).
const UNAVAILABLE_NAMES = new Set([
  'ConnectionException',
  'KnexTimeoutError',
  'HttpRequestError',
  'TimeoutError',
  'WebSocketRequestError',
  'SocketClosedError',
]);

/**
 * Whether `err`, or an error it wraps (MikroORM's DriverException keeps the driver's fields;
 * GraphQL's `originalError`; `cause`; an AggregateError's `errors`), says the database is
 * unreachable, gone or too busy.
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 8) return false;
  const e = err as { code?: unknown; message?: unknown; name?: unknown; cause?: unknown; originalError?: unknown; errors?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  if (UNAVAILABLE_CODES.has(code) || (/^[0-9A-Z]{5}$/.test(code) && UNAVAILABLE_SQLSTATE_CLASSES.includes(code.slice(0, 2)))) return true;
  if (typeof e.name === 'string' && UNAVAILABLE_NAMES.has(e.name)) return true;
  // 55000 object_not_in_prerequisite_state is ALTER DATABASE … ALLOW_CONNECTIONS false only with
  // this message (it is also currval before nextval and the like, which are bugs).
  if (code === '55000' && typeof e.message === 'string' && e.message.includes('is not currently accepting connections')) return true;
  if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.some((m) => m.test(e.message as string))) return true;
  const wrapped = [e.cause, e.originalError, ...(Array.isArray(e.errors) ? (e.errors as unknown[]) : [])];
  return wrapped.some((w) => w !== err && isDatabaseUnavailable(w, depth + 1));
}

export const serviceUnavailable = () => new DomainError('SERVICE_UNAVAILABLE', UNAVAILABLE_MESSAGE, UNAVAILABLE_RETRY_AFTER_SECONDS);

/** How a failure is logged: unforeseen ones at error, an unavailable database at warn (it is not a bug). */
export type FailureLog = 'error' | 'warn' | null;

/**
 * Turns anything thrown into a DomainError, and says how the caller logs the original.
 * Database constraint failures that escape a service's own checks still answer with a
 * meaningful status rather than a 500; a database that is gone or busy answers 503.
 */
export function toDomainError(err: unknown): { error: DomainError; log: FailureLog } {
  if (err instanceof DomainError) return { error: err, log: null };
  const anyErr = err as { code?: string; message?: string; name?: string; constraint?: string };
  const code = anyErr?.code;
  const rule = code === '23505' && anyErr.constraint ? CONSTRAINT_ANSWERS[anyErr.constraint] : undefined;
  if (rule) return { error: new DomainError(rule.code, rule.message), log: null };
  if (code && PG_CODES[code]) {
    const mapped = PG_CODES[code];
    const message =
      mapped === 'CONFLICT'
        ? code === '23505'
          ? 'record already exists'
          : 'concurrent update, retry'
        : mapped === 'NOT_FOUND'
          ? 'referenced record not found'
          : 'invalid value';
    return { error: new DomainError(mapped, message), log: null };
  }
  if (isDatabaseUnavailable(err)) return { error: serviceUnavailable(), log: 'warn' };
  return { error: new DomainError('INTERNAL', INTERNAL_MESSAGE), log: 'error' };
}
