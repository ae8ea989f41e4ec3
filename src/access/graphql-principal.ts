import type { EntityManager } from '@mikro-orm/postgresql';
import { GraphQLError } from 'graphql';
import { ERROR_TABLE, toDomainError } from '../common/errors';
import { logger } from '../common/logger';
import { anonymous, type Principal } from './principal';
import { createContext, type ContextServices, type GatewayContext } from './graphql-context';

/**
 * The principal of a GraphQL request or subscription: an ops token, a surface-O access token
 * of a distributor, the console's session cookie (`consoleSession`, read only from the console's
 * own origin: console-session-cookie.ts), or nobody. `Authorization` wins over the cookie. A
 * credential that is present but invalid is refused outright (401).
 */
export async function graphqlPrincipal(
  services: ContextServices,
  em: EntityManager,
  authorization: string | undefined,
  consoleSession?: string,
): Promise<Principal> {
  if (!authorization) return consoleSession ? sessionPrincipal(services, em, consoleSession) : anonymous;
  const token = /^Bearer\s+(\S+)$/i.exec(authorization.trim())?.[1];
  const principal = token
    ? services.opsToken.isOpsToken(token)
      ? await opsPrincipal(services, em, token)
      : await services.accessToken.authenticate(em, token)
    : null;
  if (!principal) {
    throw new GraphQLError('invalid or expired token', { extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } } });
  }
  return principal;
}

/** The ops principal of a live console session; an ended one is refused like an invalid token. */
async function sessionPrincipal(services: ContextServices, em: EntityManager, secret: string): Promise<Principal> {
  const verified = await services.consoleSession.verify(em, secret);
  if (!verified) throw new GraphQLError('the console session has ended: sign in again', { extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } } });
  return { kind: 'ops', id: verified.principalId, tokenId: verified.tokenId, name: verified.name, roles: verified.roles };
}

/**
 * An ops token, guessed at most RATE_LIMIT_OPS_FAILURES times per window from one address. A
 * token that verifies is always admitted: the counter stops guessing, never the holder of a real
 * token who shares an address (a NAT, a proxy) with someone who mistyped ten times — and a
 * guess of 32 random bytes that verifies is not a guess.
 */
async function opsPrincipal(services: ContextServices, em: EntityManager, token: string): Promise<Principal | null> {
  const verified = await services.opsToken.verify(em, token);
  if (verified) return { kind: 'ops', id: verified.principalId, tokenId: verified.tokenId, name: verified.name, roles: verified.roles };
  await services.rateLimits.assertOpsAttemptAllowed();
  await services.rateLimits.opsAttemptFailed();
  return null;
}

/**
 * The context of a principal already authenticated: admits it (a distributor that is not active
 * is refused).
 */
export async function admittedContext(services: ContextServices, em: EntityManager, principal: Principal, requestId: string): Promise<GatewayContext> {
  return refusedAsGraphql(() => createContext({ em, principal, services, requestId }));
}

/** The context of a GraphQL request or subscription from its Authorization value (or the console's session). */
export async function graphqlContext(
  services: ContextServices,
  em: EntityManager,
  authorization: string | undefined,
  requestId: string,
  consoleSession?: string,
): Promise<GatewayContext> {
  const principal = await refusedAsGraphql(() => graphqlPrincipal(services, em, authorization, consoleSession));
  return admittedContext(services, em, principal, requestId);
}

/**
 * Runs a step of building a context, turning what it throws into a GraphQL error that carries
 * its HTTP status (and `Retry-After`) from the one error table: Apollo answers 500 for anything
 * else thrown before any resolver runs.
 */
async function refusedAsGraphql<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof GraphQLError) throw err;
    const { error, log } = toDomainError(err);
    if (log) logger[log]({ err }, log === 'warn' ? 'database unavailable' : 'unhandled failure building the context');
    const entry = ERROR_TABLE[error.code];
    const retry = error.retryAfterSeconds;
    const http = { status: entry.http, ...(retry !== undefined && { headers: new Map([['retry-after', String(retry)]]) }) };
    throw new GraphQLError(error.message, { extensions: { code: entry.graphql, ...(retry !== undefined && { retryAfter: retry }), http } });
  }
}
