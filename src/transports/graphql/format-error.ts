import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { ERROR_TABLE, InvalidInput, toDomainError, type DomainError } from '../../common/errors';
import { logger } from '../../common/logger';

/**
 * The GraphQL side of the one error table: a domain error keeps its message and gets its
 * `extensions.code`; anything unforeseen is masked and logged with the request id. HTTP and
 * graphql-ws both format through the function `errorFormatter` returns.
 */
export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  const graphqlCode = formatted.extensions?.code;
  // Errors GraphQL or Apollo raised themselves (parse, validation, coercion) pass through.
  if (original === error && typeof graphqlCode === 'string' && graphqlCode !== 'INTERNAL_SERVER_ERROR') return formatted;
  // Not a resolver failure (a socket-side parse or validation error has no code yet): GraphQL's own words.
  if (error instanceof GraphQLError && !error.originalError && !error.path) return { ...formatted, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } };
  const { error: domain, log } = toDomainError(original);
  if (log) logger[log]({ err: original, path: formatted.path }, log === 'warn' ? 'database unavailable' : 'unhandled failure in resolver');
  return {
    message: domain.message,
    locations: formatted.locations,
    path: formatted.path,
    extensions: { code: ERROR_TABLE[domain.code].graphql, ...retryAfter(domain), ...(domain instanceof InvalidInput && { fields: domain.fields }) },
  };
}

/**
 * formatError, and outside development (whatever NODE_ENV says) without GraphQL's "Did you
 * mean …?" hints, which would spell out the schema that introspection is refused for, and
 * without any stack trace (Apollo's `extensions.stacktrace`, with the gateway's file paths):
 * only a message and the code leave the process.
 */
export function errorFormatter(options: { development: boolean }) {
  if (options.development) return formatError;
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const out = formatError(formatted, error);
    const { stacktrace: _stack, exception: _exception, ...extensions } = (out.extensions ?? {}) as Record<string, unknown>;
    return { ...out, message: out.message.replace(SUGGESTION, ''), ...(out.extensions && { extensions }) };
  };
}

const SUGGESTION = /\s*Did you mean [^?]*\?/g;

/** A retryable refusal (too many attempts, the database away) says when to try again (REST: `Retry-After`). */
function retryAfter(error: DomainError): { retryAfter?: number } {
  return error.retryAfterSeconds !== undefined ? { retryAfter: error.retryAfterSeconds } : {};
}
