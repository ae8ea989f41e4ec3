import { unwrapResolverError } from '@apollo/server/errors';
import type { GraphQLFormattedError } from 'graphql';
import { ERROR_TABLE, toDomainError } from '../common/errors';
import { logger } from '../common/logger';

/**
 * The GraphQL side of the one error table: a domain error keeps its message and gets its
 * `extensions.code`; anything unforeseen is masked and logged with the request id.
 */
export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  const graphqlCode = formatted.extensions?.code;
  // Errors GraphQL or Apollo raised themselves (parse, validation, coercion) pass through.
  if (original === error && typeof graphqlCode === 'string' && graphqlCode !== 'INTERNAL_SERVER_ERROR') return formatted;
  const { error: domain, unexpected } = toDomainError(original);
  if (unexpected) logger.error({ err: original, path: formatted.path }, 'unhandled failure in resolver');
  return {
    message: domain.message,
    locations: formatted.locations,
    path: formatted.path,
    extensions: { code: ERROR_TABLE[domain.code].graphql },
  };
}
