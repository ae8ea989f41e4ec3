import { type DocumentNode, execute, type ExecutionResult, GraphQLError, type GraphQLSchema, validate } from 'graphql';
import { compileQuery, type CompiledQuery, isCompiledQuery } from 'graphql-jit';
import { RateLimited, toDomainError } from '../src/common/errors';
import { logger } from '../src/common/logger';
import type { GatewayContext } from '../src/graphql/context';
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
 * (`compiled`), so no request pays for planning a fixed operation.
 */
export function validateRoutes(schema: GraphQLSchema, routes: RestRoute[]): void {
  for (const r of routes) {
    const errors = validate(schema, r.document);
    if (errors.length) throw new Error(`${r.method} ${r.path}: ${errors.map((e) => e.message).join('; ')}`);
    compiled(schema, r.document);
  }
}

/**
 * The routes' fixed operations compiled by graphql-jit into plain functions, once per schema
 * and document. They call the schema's own field resolvers, so the visibility guard
 * (src/graphql/visibility.ts wraps them) applies exactly as under graphql-js.
 */
const compiledBySchema = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, CompiledQuery>>();

function compiled(schema: GraphQLSchema, document: DocumentNode): CompiledQuery {
  let bySchema = compiledBySchema.get(schema);
  if (!bySchema) compiledBySchema.set(schema, (bySchema = new WeakMap()));
  let query = bySchema.get(document);
  if (!query) {
    const result = compileQuery(schema, document);
    if (!isCompiledQuery(result)) throw new Error(`operation does not compile: ${result.errors?.map((e) => e.message).join('; ')}`);
    bySchema.set(document, (query = result));
  }
  return query;
}

/**
 * Executes the operation compiled. Variables the compiled code refuses (nothing has run yet: the
 * result has no `data`) are handed to graphql-js, whose coercion messages `fromError` maps to
 * the documented ones, so a bad input answers exactly as it always did.
 */
async function executeCompiled(schema: GraphQLSchema, document: DocumentNode, variableValues: Record<string, unknown>, contextValue: GatewayContext): Promise<ExecutionResult> {
  const result = await compiled(schema, document).query(undefined, contextValue, variableValues);
  if ('data' in result) return result;
  return execute({ schema, document, variableValues, contextValue });
}

/** Runs the route's operation in-process against the schema and wraps the outcome in the envelope. */
export async function runRoute(schema: GraphQLSchema, route: RestRoute, req: RestRequest, context: GatewayContext): Promise<RestOutcome> {
  let variables: unknown;
  try {
    variables = route.variables(req);
  } catch (err) {
    return fromError(err);
  }
  const result = await executeCompiled(schema, route.document, variables as Record<string, unknown>, context);
  if (result.errors?.length) return fromError(result.errors[0]);
  return { status: 200, body: success(route.data(result.data as never, req)) };
}

/** One mapping from anything thrown to the documented status and message. */
export function fromError(err: unknown): RestOutcome {
  // A variable that failed coercion: a body or query field of the wrong type.
  if (err instanceof GraphQLError && err.message.startsWith('Variable "$')) {
    return { status: 400, body: failure(describeCoercionError(err.message)) };
  }
  const original = err instanceof GraphQLError ? (err.originalError ?? err) : err;
  const { error, unexpected } = toDomainError(original);
  if (unexpected) logger.error({ err: original }, 'unhandled failure');
  const headers = error instanceof RateLimited ? { 'retry-after': String(error.retryAfterSeconds) } : undefined;
  return { status: error.httpStatus, body: failure(error.message), ...(headers && { headers }) };
}

/**
 * Turns GraphQL's coercion message into the description's style: the field by name and what
 * it must be, e.g. `Variable "$input" got invalid value "x" at "input.amount"; …Float…` →
 * `amount must be a number`.
 */
export function describeCoercionError(message: string): string {
  const at = /at "(?:[^".]+\.)*([^".]+)"/.exec(message)?.[1] ?? /Variable "\$([^"]+)"/.exec(message)?.[1] ?? 'request';
  // The scalars' range messages (src/graphql/scalars.ts) say what the field must be.
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

