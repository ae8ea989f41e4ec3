import type { EntityManager } from '@mikro-orm/postgresql';
import { GraphQLError } from 'graphql';
import { DomainError, ERROR_TABLE, RateLimited } from '../common/errors';
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
  const principal = token ? (services.opsToken.isOpsToken(token) ? await opsPrincipal(services, em, token) : await services.accessToken.authenticate(em, token)) : null;
  if (!principal) {
    throw new GraphQLError('invalid or expired token', { extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } } });
  }
  return principal;
}

/**
 * An ops token, guessed at most RATE_LIMIT_OPS_FAILURES times per window from one address. A
 * token that verifies is always admitted: the counter stops guessing, never the holder of a real
 * token who shares an address (a NAT, a proxy) with someone who mistyped ten times — and a
 * guess of 32 random bytes that verifies is not a guess.
 */
async function opsPrincipal(services: Services, em: EntityManager, token: string): Promise<Principal | null> {
  const name = await services.opsToken.verify(em, token);
  if (name) return { kind: 'ops', name };
  await services.rateLimits.assertOpsAttemptAllowed().catch((err) => {
    // Raised while the context is built, before any resolver: Apollo takes its status from here.
    if (!(err instanceof RateLimited)) throw err;
    const { graphql: code, http: status } = ERROR_TABLE.RATE_LIMITED;
    throw new GraphQLError(err.message, { extensions: { code, retryAfter: err.retryAfterSeconds, http: { status, headers: new Map([['retry-after', String(err.retryAfterSeconds)]]) } } });
  });
  await services.rateLimits.opsAttemptFailed();
  return null;
}

/**
 * The context of a principal already authenticated: admits it (a distributor that is not active
 * is refused) and turns a refusal into a GraphQL error carrying its HTTP status, since Apollo
 * answers 500 for anything else thrown while building a context.
 */
export async function admittedContext(services: Services, em: EntityManager, principal: Principal, requestId: string): Promise<GatewayContext> {
  try {
    return await createContext({ em, principal, services, requestId });
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    const entry = ERROR_TABLE[err.code];
    throw new GraphQLError(err.message, { extensions: { code: entry.graphql, http: { status: entry.http } } });
  }
}

/** The context of a GraphQL request or subscription from its Authorization value. */
export async function graphqlContext(services: Services, em: EntityManager, authorization: string | undefined, requestId: string): Promise<GatewayContext> {
  return admittedContext(services, em, await graphqlPrincipal(services, em, authorization), requestId);
}
