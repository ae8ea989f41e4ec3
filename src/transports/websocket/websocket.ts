import type { MikroORM } from '@mikro-orm/postgresql';
import { ERROR_TABLE, UNAVAILABLE_MESSAGE } from '../../common/errors';
import { execute, getOperationAST, GraphQLError, specifiedRules, validate, type ExecutionArgs, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import type { IncomingMessage, Server } from 'node:http';
import { WebSocketServer } from 'ws';
import { logger } from '../../common/logger';
import { principalLabel, type Principal } from '../../access/principal';
import type { GatewayContext } from '../../access/graphql-context';
import { runInScope } from '../../common/request-scope';
import type { ContextServices as Services } from '../../access/graphql-context';
import type { GraphqlGuards } from '../graphql/limits';
import { operationInputProblem } from '../graphql/input-guard';
import { admittedContext, graphqlContext } from '../../access/graphql-principal';
import { consoleSessionOf } from '../../access/console-session-cookie';
import { sharedSubscribe } from './shared-subscriptions';
import { SOCKET_QUOTA_MESSAGE, SUBSCRIPTION_QUOTA_MESSAGE } from '../../access/quotas';

/**
 * Close codes of the GraphQL socket (besides graphql-ws's own):
 * - 4403 Forbidden: `connection_init` without a valid `Authorization` (no principal, no socket),
 *   or, without one, an upgrade request from the console's origin without a live session cookie;
 * - 4401 Unauthorized: the credential stopped being valid while connected (access token expired,
 *   API credential or token family revoked, ops token revoked, distributor no longer active):
 *   re-authenticate and reconnect;
 * - 4429 Too many attempts: the address failed ops tokens too often (RATE_LIMIT_OPS_FAILURES);
 *   or, with the reason `Too many open sockets for this principal|from this address`, the
 *   principal or the address already holds its quota of sockets (QUOTA_SOCKETS_PER_*):
 *   close another one first;
 * - 1009 Message too big: a message above BODY_LIMIT (ws `maxPayload`).
 */
/** Where subscriptions are served, as an error on another transport tells the client. */
export const GRAPHQL_WS_HINT = 'open a graphql-ws (graphql-transport-ws) socket on /graphql';

export const WS_CLOSE = {
  forbidden: 4403,
  credentialEnded: 4401,
  rateLimited: 4429,
} as const;

export interface GraphqlWebSocketDeps {
  server: Server;
  path: string;
  schema: GraphQLSchema;
  orm: MikroORM;
  services: Services;
  guards: GraphqlGuards;
  formatError: (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;
  /** Largest message in bytes (BODY_LIMIT). */
  maxPayload: number;
  /** The client's address as express sees it (TRUST_PROXY applies), for rate limits. */
  clientAddress: (req: IncomingMessage) => string | undefined;
  /** How often a connection's credential is checked again (default 15 s). */
  recheckMs?: number;
}

interface Connection {
  /** `connectionParams.Authorization`; without one, the console's session cookie of the upgrade request. */
  authorization: string | undefined;
  consoleSession: string | undefined;
  /** As of the last check (an ops principal's roles are read again before each operation). */
  principal: Principal;
  socket: { close(code: number, reason: string): void };
  clientAddress: string | undefined;
  timer?: NodeJS.Timeout;
  /** Gives the socket's place in the quotas back (src/access/quotas.ts). */
  release: () => Promise<void>;
  /** The same for each open subscription, by operation id. */
  subscriptions: Map<string, () => Promise<void>>;
}

const authorizationOf = (params: Record<string, unknown> | undefined): string | undefined => {
  const value = params?.Authorization ?? params?.authorization;
  return typeof value === 'string' && value.trim() ? value : undefined;
};

/** Failures of a credential re-check that say nothing of the credential. */
const UNDECIDED = new Set<string>([ERROR_TABLE.SERVICE_UNAVAILABLE.graphql, ERROR_TABLE.INTERNAL.graphql]);

/**
 * GraphQL over graphql-ws on the HTTP server's GraphQL path, behind the same protections as
 * HTTP: the same document limits (graphqlGuards) and introspection rule, the same error masking,
 * a message size limit of BODY_LIMIT, a principal required to connect, and the connection closed
 * (4401) as soon as its credential no longer authenticates.
 */
export function graphqlWebSocket(deps: GraphqlWebSocketDeps): { dispose(): void | Promise<void> } {
  const wsServer = new WebSocketServer({ server: deps.server, path: deps.path, maxPayload: deps.maxPayload });
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- moduleResolution node does not read the package's `exports`, so graphql-ws/use/ws is required and typed from its dist path
  const { useServer } = require('graphql-ws/use/ws') as typeof import('graphql-ws/dist/use/ws');
  const connections = new WeakMap<object, Connection>();
  // The open connections of ops principals: checked again at once when ops credentials change.
  const opsConnections = new Set<Connection>();
  // The client address of each operation's context, so execution counts against it (rate limits).
  const addresses = new WeakMap<object, string | undefined>();
  const recheckMs = deps.recheckMs ?? 15_000;
  const rules = [...specifiedRules, ...deps.guards.validationRules];
  const format = (errors: readonly GraphQLError[]) => errors.map((e) => deps.formatError(e.toJSON(), e));

  /** The principal of `authorization` now, admitted (an inactive distributor is refused), in a scope carrying the client's address (rate limits). */
  const authenticate = (credential: Pick<Connection, 'authorization' | 'consoleSession'>, clientAddress: string | undefined) =>
    runInScope(
      { requestId: 'ws', clientAddress, principal: 'anonymous' },
      async () => (await graphqlContext(deps.services, deps.orm.em.fork(), credential.authorization, 'ws', credential.consoleSession)).access.principal,
    );

  // A revocation (or a change of roles) anywhere drops the remembered ops tokens, on this instance
  // at its commit and on the others at its NOTIFY: each ops socket is checked then, not at its next
  // interval, so a revoked credential's sockets close at once.
  const stopFollowing = deps.services.opsToken.onForget(() => {
    for (const connection of opsConnections) void recheck(connection, connection.socket);
  });

  const server = useServer(
    {
      schema: deps.schema,
      // An event is resolved once per principal and document, not once per subscriber.
      subscribe: sharedSubscribe(),
      // Queries and mutations run in a scope carrying the connection's address, like HTTP requests:
      // `issueAccessToken` and the other counted attempts count against it (src/access/rate-limit.ts).
      // Its writes record the connection's principal (no header exists here to lie about it).
      execute: (args: ExecutionArgs) =>
        runInScope(
          { requestId: 'ws', clientAddress: addresses.get(args.contextValue as object), ...wsActor((args.contextValue as GatewayContext).access.principal) },
          () => execute(args),
        ),
      onConnect: async (ctx) => {
        const authorization = authorizationOf(ctx.connectionParams);
        // The console's socket carries no token: its upgrade request carries the session cookie (from its own origin only).
        const consoleSession = authorization ? undefined : consoleSessionOf(ctx.extra.request);
        if (!authorization && !consoleSession) return false;
        const clientAddress = deps.clientAddress(ctx.extra.request);
        try {
          const principal = await authenticate({ authorization, consoleSession }, clientAddress);
          if (principal.kind === 'anonymous') return false;
          const opened = await deps.services.quotas.openSocket(principal, clientAddress);
          if ('refused' in opened) {
            ctx.extra.socket.close(
              WS_CLOSE.rateLimited,
              `${SOCKET_QUOTA_MESSAGE} ${opened.refused === 'principal' ? 'for this principal' : 'from this address'}`,
            );
            return false;
          }
          const socket = ctx.extra.socket;
          const connection: Connection = { authorization, consoleSession, principal, socket, clientAddress, release: opened.release, subscriptions: new Map() };
          connection.timer = setInterval(() => void recheck(connection, socket), recheckMs).unref();
          connections.set(ctx, connection);
          if (principal.kind === 'ops') opsConnections.add(connection);
          return true;
        } catch (err) {
          if (err instanceof GraphQLError && err.extensions.code === 'RATE_LIMITED') ctx.extra.socket.close(WS_CLOSE.rateLimited, 'Too many attempts');
          return false; // 4403 Forbidden
        }
      },
      onClose: async (ctx) => {
        const connection = connections.get(ctx);
        connections.delete(ctx);
        if (!connection) return;
        opsConnections.delete(connection);
        clearInterval(connection.timer);
        await Promise.all([connection.release(), ...[...connection.subscriptions.values()].map((release) => release())]);
      },
      onComplete: async (ctx, id) => {
        const subscriptions = connections.get(ctx)?.subscriptions;
        const release = subscriptions?.get(id);
        subscriptions?.delete(id);
        await release?.();
      },
      onSubscribe: async (ctx, id, payload) => {
        // No operation runs on an ops credential that no longer works: checked before each one,
        // which costs no statement while it is remembered (OpsTokenService), and a revocation
        // drops that memory at its commit, before it answers.
        const current = connections.get(ctx);
        if (current?.principal.kind === 'ops') {
          const refusal = await admittedNow(current);
          if (refusal) return [refusal];
        }
        let document;
        try {
          document = deps.guards.parse(payload.query);
        } catch (err) {
          return [err instanceof GraphQLError ? err : new GraphQLError('Syntax Error: the document could not be parsed')];
        }
        const errors = validate(deps.schema, document, rules);
        if (errors.length) return [...errors];
        // The same input rules as on HTTP (inputHygienePlugin), before anything subscribes.
        const problem = operationInputProblem(document, payload.variables ?? undefined);
        if (problem) return [new GraphQLError(problem, { extensions: { code: 'BAD_USER_INPUT' } })];
        const connection = connections.get(ctx);
        if (connection && getOperationAST(document, payload.operationName)?.operation === 'subscription') {
          const opened = await deps.services.quotas.openSubscription(connection.principal, connection.clientAddress);
          if ('refused' in opened)
            return [
              new GraphQLError(`${SUBSCRIPTION_QUOTA_MESSAGE} ${opened.refused === 'principal' ? 'for this principal' : 'from this address'}`, {
                extensions: { code: 'RATE_LIMITED' },
              }),
            ];
          connection.subscriptions.set(id, opened.release);
        }
        return { schema: deps.schema, document, operationName: payload.operationName, variableValues: payload.variables };
      },
      context: async (ctx) => {
        const connection = connections.get(ctx);
        // onConnect admitted only connections with a principal; a missing one fails closed.
        const principal: Principal = connection?.principal ?? { kind: 'anonymous' };
        const context = await admittedContext(deps.services, deps.orm.em.fork(), principal, 'ws');
        addresses.set(context, connection?.clientAddress);
        return context;
      },
      onNext: (_ctx, _id, _payload, _args, result) => (result.errors ? { ...result, errors: format(result.errors) } : undefined),
      onError: (_ctx, _id, _payload, errors) => format(errors),
    },
    wsServer,
  );
  return {
    dispose: () => {
      stopFollowing();
      return server.dispose();
    },
  };

  /**
   * Whether an ops connection's credential still authenticates now: null when it does (its
   * principal, roles included, as of now), else the error its operation answers; a credential that
   * ended also closes the socket (4401). An undecided check (the database away) refuses the
   * operation and keeps the socket.
   */
  async function admittedNow(connection: Connection): Promise<GraphQLError | null> {
    try {
      const principal = await authenticate(connection, connection.clientAddress);
      if (principal.kind !== 'anonymous') {
        connection.principal = principal;
        return null;
      }
    } catch (err) {
      if (!(err instanceof GraphQLError) || UNDECIDED.has(err.extensions.code as string)) {
        logger.warn({ err: err instanceof GraphQLError ? err.message : err }, 'could not check a GraphQL socket credential before an operation');
        return new GraphQLError(UNAVAILABLE_MESSAGE, { extensions: { code: ERROR_TABLE.SERVICE_UNAVAILABLE.graphql } });
      }
    }
    clearInterval(connection.timer);
    opsConnections.delete(connection);
    connection.socket.close(WS_CLOSE.credentialEnded, 'Unauthorized: credential expired or revoked');
    return new GraphQLError('invalid or expired token', { extensions: { code: 'UNAUTHENTICATED' } });
  }

  /** Closes the socket once its credential stops authenticating (expired, revoked). */
  async function recheck(connection: Connection, socket: Connection['socket']) {
    let stillValid: boolean;
    try {
      const principal = await authenticate(connection, connection.clientAddress);
      stillValid = principal.kind !== 'anonymous';
    } catch (err) {
      if (!(err instanceof GraphQLError) || UNDECIDED.has(err.extensions.code as string)) {
        // The database is unreachable (or the check failed): keep the socket; the next check decides.
        logger.warn({ err: err instanceof GraphQLError ? err.message : err }, 'could not re-check a GraphQL socket credential');
        return;
      }
      stillValid = false;
    }
    if (!stillValid) {
      clearInterval(connection.timer);
      opsConnections.delete(connection);
      socket.close(WS_CLOSE.credentialEnded, 'Unauthorized: credential expired or revoked');
    }
  }
}

/** The principal and actor note of an operation over graphql-ws: ops writes name their token, others the door's default. */
function wsActor(principal: Principal): { principal: string; actor?: string } {
  return { principal: principalLabel(principal) ?? 'anonymous', ...(principal.kind === 'ops' && { actor: principal.name }) };
}
