import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import { expressMiddleware } from '@as-integrations/express5';
import type { MikroORM } from '@mikro-orm/postgresql';
import express from 'express';
import type { GraphQLSchema } from 'graphql';
import type { IncomingMessage, Server } from 'node:http';
import { graphqlContext } from '../../access/graphql-principal';
import { currentScope, runInDoorScope } from '../../common/request-scope';
import type { ContextServices as Services } from '../../access/graphql-context';
import { graphqlWebSocket } from '../websocket/websocket';
import { compiledExecution } from './compiled-execution';
import type { GatewayContext } from '../../access/graphql-context';
import { errorFormatter } from './format-error';
import { graphqlBodyErrors, inputHygienePlugin } from './input-guard';
import type { GraphqlLimits } from '../../config/graphql-limits';
import { graphqlGuards } from './limits';
import { operationGuardPlugin } from './operation-guard';

/** Where GraphQL answers, over HTTP and graphql-ws alike. */
export const GRAPHQL_PATH = '/graphql';
/**
 * How long a stop lets the requests in flight finish once it stops listening; then their
 * connections are closed (a keep-alive client that never pauses, or a request waiting on a
 * database that is away, would hold the stop otherwise).
 */
export const IN_FLIGHT_GRACE_MS = 5000;

export interface GraphqlTransportDeps {
  server: Server;
  schema: GraphQLSchema;
  orm: MikroORM;
  services: Services;
  development: boolean;
  /** Answer introspection (development and test only). */
  introspection: boolean;
  limits: GraphqlLimits;
  bodyLimit: string;
  /** The largest graphql-ws message, in bytes (the body limit's). */
  maxPayload: number;
  /** The caller's address of an upgrade request, as express's `trust proxy` reads it. */
  clientAddress: (req: IncomingMessage) => string;
  /** Plugins beside the transport's own (metrics). */
  plugins: ApolloServerPlugin<GatewayContext>[];
  websocketRecheckMs?: number;
}

export interface GraphqlTransport {
  /** What serves GRAPHQL_PATH over HTTP, in order (a body that is not JSON answers 400/413 as a GraphQL error). */
  handlers: express.RequestHandler[];
  errors: express.ErrorRequestHandler;
  stop(): Promise<void>;
}

/**
 * GraphQL over HTTP (Apollo Server, Sandbox in development) and over graphql-ws on the same path
 * (where Apollo Sandbox finds subscriptions), under one set of limits, one error format and one
 * principal per request.
 */
export async function graphqlTransport(deps: GraphqlTransportDeps): Promise<GraphqlTransport> {
  const guards = graphqlGuards(deps.limits, { introspection: deps.introspection });
  const formatError = errorFormatter({ development: deps.development });
  const apollo = new ApolloServer<GatewayContext>({
    // The schema, with repeated queries executed compiled (compiled-execution.ts).
    gateway: compiledExecution(deps.schema),
    formatError,
    // Introspection is refused by graphqlGuards' rules, the same on HTTP and graphql-ws.
    introspection: true,
    validationRules: guards.validationRules,
    parseOptions: guards.parseOptions,
    // A JSON array of operations is refused (400): one request, one document within the limits.
    allowBatchedHttpRequests: false,
    // Outside development no answer carries a stack trace or a file path, whatever NODE_ENV says.
    includeStacktraceInErrorResponses: deps.development,
    // Apollo's own SIGTERM handler (on unless NODE_ENV=test, which is why the suite never saw it)
    // ran its drain plugin at once and closed the HTTP server: the 503 window of /ready never
    // happened. The gateway's stop (src/main.ts) decides when serving ends and stops Apollo then.
    stopOnTerminationSignals: false,
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer: deps.server, stopGracePeriodMillis: IN_FLIGHT_GRACE_MS }),
      // Apollo's default cache-control plugin wraps every field's resolver to gather cache hints
      // that nothing here sets, so it always answered `no-store`; that header is kept without the
      // per-field cost (docs/benchmarks.md).
      ApolloServerPluginCacheControlDisabled(),
      operationGuardPlugin,
      inputHygienePlugin,
      { serverWillStart: async () => ({ drainServer: async () => void (await sockets.dispose()) }) },
      ...deps.plugins,
      // Apollo Sandbox (scripts from Apollo's CDN on this origin) in development only; elsewhere no page at all.
      deps.development ? ApolloServerPluginLandingPageLocalDefault({ embed: true, includeCookies: false }) : ApolloServerPluginLandingPageDisabled(),
    ],
  });
  const sockets = graphqlWebSocket({
    server: deps.server,
    path: GRAPHQL_PATH,
    schema: deps.schema,
    orm: deps.orm,
    services: deps.services,
    guards,
    formatError,
    maxPayload: deps.maxPayload,
    clientAddress: deps.clientAddress,
    recheckMs: deps.websocketRecheckMs,
  });
  await apollo.start();
  const services = deps.services;
  return {
    handlers: [
      express.json({ limit: deps.bodyLimit }),
      (req, _res, next) =>
        runInDoorScope({ requestId: req.get('x-request-id') || undefined, actor: req.get('x-actor')?.trim() || undefined, principal: 'anonymous' }, next),
      expressMiddleware(apollo, {
        context: async ({ req }) => {
          const scope = currentScope();
          const ctx = await graphqlContext(services, deps.orm.em.fork(), req.get('authorization'), scope?.requestId ?? '');
          // Ops writes default their actor to the token's name.
          if (scope && !req.get('x-actor') && ctx.access.opsName) scope.actor = ctx.access.opsName;
          return ctx;
        },
      }),
    ],
    errors: graphqlBodyErrors,
    stop: () => apollo.stop(),
  };
}
