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
  ) {
    super(message);
    this.name = 'DomainError';
  }

  get httpStatus(): number {
    return ERROR_TABLE[this.code].http;
  }
}

/** Too many attempts: refused until `retryAfterSeconds` have passed (REST: 429 with `Retry-After`). */
export class RateLimited extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super('RATE_LIMITED', 'too many attempts, retry later');
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

const CONNECTION_FAILURES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P03', '08006', '08001', '08003']);

/**
 * Turns anything thrown into a DomainError; `unexpected` tells the caller to log the original.
 * Database constraint failures that escape a service's own checks still answer with a
 * meaningful status rather than a 500.
 */
export function toDomainError(err: unknown): { error: DomainError; unexpected: boolean } {
  if (err instanceof DomainError) return { error: err, unexpected: false };
  const anyErr = err as { code?: string; message?: string; name?: string; constraint?: string };
  const code = anyErr?.code;
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
    return { error: new DomainError(mapped, message), unexpected: false };
  }
  if ((code && CONNECTION_FAILURES.has(code)) || anyErr?.name === 'ConnectionException') {
    return { error: new DomainError('SERVICE_UNAVAILABLE', UNAVAILABLE_MESSAGE), unexpected: true };
  }
  return { error: new DomainError('INTERNAL', INTERNAL_MESSAGE), unexpected: true };
}
