import { GraphQLError, type GraphQLSchema, validate } from 'graphql';
import { compiledOperation, executeCompiled } from '../src/transports/graphql/compiled-execution';
import { toDomainError } from '../src/common/errors';
import { logger } from '../src/common/logger';
import type { GatewayContext } from '../src/access/graphql-context';
import { failure, success, type Envelope } from './envelope';
import type { RestRequest, RestRoute } from './route';

export interface RestOutcome {
  status: number;
  body: Envelope;
  headers?: Record<string, string>;
}

/**
 * Validates every route's operation against the schema once, at start, so a route whose
 * document drifted from the schema stops the boot instead of failing a client; and compiles it
 * (src/transports/graphql/compiled-execution.ts), so no request pays for planning a fixed operation. The
 * compiled code calls the schema's own field resolvers, so the visibility guard applies exactly
 * as under graphql-js.
 */
export function validateRoutes(schema: GraphQLSchema, routes: RestRoute[]): void {
  for (const r of routes) {
    const errors = validate(schema, r.document);
    if (errors.length) throw new Error(`${r.method} ${r.path}: ${errors.map((e) => e.message).join('; ')}`);
    if (!compiledOperation(schema, r.document)) throw new Error(`${r.method} ${r.path}: the operation does not compile`);
  }
}

/** Runs the route's operation in-process against the schema and wraps the outcome in the envelope. */
export async function runRoute(schema: GraphQLSchema, route: RestRoute, req: RestRequest, context: GatewayContext): Promise<RestOutcome> {
  let variables: Record<string, unknown>;
  try {
    variables = route.variables(req);
  } catch (err) {
    return fromError(err);
  }
  const result = await executeCompiled(schema, route.document, null, variables, context);
  if (result.errors?.length) return fromError(result.errors[0]);
  return { status: 200, body: success(route.data(result.data, req)) };
}

/** One mapping from anything thrown to the documented status and message. */
export function fromError(err: unknown): RestOutcome {
  // A variable that failed coercion: a body or query field of the wrong type.
  if (err instanceof GraphQLError && err.message.startsWith('Variable "$')) {
    return { status: 400, body: failure(describeCoercionError(err.message)) };
  }
  const original = err instanceof GraphQLError ? (err.originalError ?? err) : err;
  const { error, log } = toDomainError(original);
  if (log) logger[log]({ err: original }, log === 'warn' ? 'database unavailable' : 'unhandled failure');
  const headers = error.retryAfterSeconds !== undefined ? { 'retry-after': String(error.retryAfterSeconds) } : undefined;
  return { status: error.httpStatus, body: failure(error.message), ...(headers && { headers }) };
}

/**
 * Turns GraphQL's coercion message into the description's style: the field by name and what
 * it must be, e.g. `Variable "$input" got invalid value "x" at "input.amount"; …Float…` →
 * `amount must be a number`.
 */
export function describeCoercionError(message: string): string {
  const at = /at "(?:[^".]+\.)*([^".]+)"/.exec(message)?.[1] ?? /Variable "\$([^"]+)"/.exec(message)?.[1] ?? 'request';
  // The scalars' range messages (src/common/scalars.ts) say what the field must be.
  const epochRange = /epoch milliseconds from \d+ to \d+/.exec(message);
  if (epochRange) return `${at} must be ${epochRange[0]}`;
  if (/out of range/.test(message)) return `${at} is out of range`;
  if (/(Float|Int|Decimal|EpochMs)/.test(message)) return `${at} must be a number`;
  if (/String cannot represent/.test(message)) return `${at} must be a string`;
  if (/Boolean cannot represent/.test(message)) return `${at} must be a boolean`;
  if (/Expected type "(\w+)"/.test(message) && /Enum|Value/.test(message)) return `${at} has an invalid value`;
  if (/of required type/.test(message) || /was not provided/.test(message)) return `${at} is required`;
  return `${at} is invalid`;
}
