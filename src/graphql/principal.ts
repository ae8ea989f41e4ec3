import type { EntityManager } from '@mikro-orm/postgresql';
import { GraphQLError } from 'graphql';
import { DomainError, ERROR_TABLE } from '../common/errors';
import { anonymous, type Principal } from '../common/principal';
import type { Services } from '../services';
import { createContext, type GatewayContext } from './context';

/**
 * The principal of a GraphQL request or subscription: an ops token, a surface-O access token
 * of a distributor, or nobody. A token that is present but invalid is refused outright (401).
 */
export async function graphqlPrincipal(services: Services, em: EntityManager, authorization: string | undefined): Promise<Principal> {
  if (!authorization) return anonymous;
  const token = /^Bearer\s+(\S+)$/i.exec(authorization.trim())?.[1];
  const principal = token
    ? services.opsToken.isOpsToken(token)
      ? await services.opsToken.verify(em, token).then((name): Principal | null => (name ? { kind: 'ops', name } : null))
      : await services.accessToken.authenticate(em, token)
    : null;
  if (!principal) {
    throw new GraphQLError('invalid or expired token', { extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } } });
  }
  return principal;
}

/**
 * The context of a GraphQL request or subscription from its Authorization value. A refusal
 * (invalid token, a distributor that is not active) is a GraphQL error carrying its HTTP status,
 * since Apollo answers 500 for anything else thrown while building a context.
 */
export async function graphqlContext(services: Services, em: EntityManager, authorization: string | undefined, requestId: string): Promise<GatewayContext> {
  const principal = await graphqlPrincipal(services, em, authorization);
  try {
    return await createContext({ em, principal, services, requestId });
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    const entry = ERROR_TABLE[err.code];
    throw new GraphQLError(err.message, { extensions: { code: entry.graphql, http: { status: entry.http } } });
  }
}
