import { badRequest, conflict, DomainError } from '../../common/errors';

/** The answers of the Idempotency-Key rules (docs/api.md, "Idempotency-Key"). */
export const invalidIdempotencyKey = () => badRequest('Idempotency-Key must be 1 to 255 printable ASCII characters');
export const idempotencyKeyReused = () => new DomainError('UNPROCESSABLE', 'Idempotency-Key was already used with a different request');
export const idempotencyKeyInFlight = () => conflict('a request with this Idempotency-Key is still being processed; retry later');
