import type { EntityManager } from '@mikro-orm/postgresql';
import { GraphQLError } from 'graphql';
import { anonymous, type Principal } from '../common/principal';
import type { Services } from '../services';

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
