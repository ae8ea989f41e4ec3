import 'reflect-metadata';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import {
  ApolloServerPluginLandingPageLocalDefault,
  ApolloServerPluginLandingPageProductionDefault,
} from '@apollo/server/plugin/landingPage/default';
import { expressMiddleware } from '@as-integrations/express5';
import type { MikroORM } from '@mikro-orm/postgresql';
import express from 'express';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SURFACE_O } from '../rest-compat/surface-o';
import { SURFACE_R } from '../rest-compat/surface-r';
import { failure } from '../rest-compat/envelope';
import { restRouter } from '../rest-compat/router';
import type { Clock } from './common/clock';
import { logger } from './common/logger';
import { readCacheSubscriber } from './common/read-cache';
import { currentScope, runInScope } from './common/request-scope';
import type { Config } from './config';
import { createContext, type GatewayContext } from './graphql/context';
import { formatError } from './graphql/format-error';
import { graphqlPrincipal } from './graphql/principal';
import { gatewaySchema } from './graphql/schema';
import { createServices, type Services } from './services';
import { SUPPLY_PREFIX, supplyCallbackRouter } from './supply/callback.routes';
import type { SupplyProvidersConfig } from './supply/provider';

export const REST_PREFIX = '/api/v1';
export const GRAPHQL_PATH = '/graphql';

export interface Gateway {
  server: Server;
  services: Services;
  /** Starts listening; resolves with the bound port. */
  listen(port: number, host: string): Promise<number>;
  /** Stops taking requests, lets in-flight ones finish, then stops. */
  close(): Promise<void>;
}

export interface GatewayDeps {
  config: Pick<Config, 'env' | 'bodyLimit'> & Partial<Pick<Config, 'jwt'>>;
  orm: MikroORM;
  clock: Clock;
  /** Supply-side platforms by provider id (Config.supplyProviders). */
  supply?: SupplyProvidersConfig;
}

/** One HTTP server: the REST facade under /api/v1 and GraphQL (with Sandbox) at /graphql. */
export async function createGateway(deps: GatewayDeps): Promise<Gateway> {
  const schema = gatewaySchema();
  const services = createServices({ clock: deps.clock, env: deps.config.env, jwt: deps.config.jwt, supply: deps.supply });
  // Committed events drop what they change from the read cache (src/common/read-cache.ts).
  deps.orm.em.getEventManager().registerSubscriber(readCacheSubscriber(services.readCache));
  const app = express();
  const server = createServer(app);
  const development = deps.config.env === 'development' || deps.config.env === 'test';

  app.disable('x-powered-by');
  app.set('trust proxy', process.env.TRUST_PROXY === 'true');

  const apollo = new ApolloServer<GatewayContext>({
    schema,
    formatError,
    introspection: development || process.env.GRAPHQL_INTROSPECTION === 'true',
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer: server }),
      development ? ApolloServerPluginLandingPageLocalDefault({ embed: true, includeCookies: false }) : ApolloServerPluginLandingPageProductionDefault({ footer: false }),
    ],
  });
  await apollo.start();

  app.use(
    REST_PREFIX,
    // The router opens the request scope itself, once the route (and so the default actor) is known.
    restRouter({ schema, orm: deps.orm, services, surfaceR: SURFACE_R, surfaceO: SURFACE_O, bodyLimit: deps.config.bodyLimit }),
  );

  app.use(
    GRAPHQL_PATH,
    express.json({ limit: deps.config.bodyLimit }),
    (req, _res, next) => runInScope({ requestId: req.get('x-request-id') || undefined, actor: req.get('x-actor')?.trim() || undefined }, next),
    expressMiddleware(apollo, {
      context: async ({ req }) => {
        const em = deps.orm.em.fork();
        const principal = await graphqlPrincipal(services, em, req.get('authorization'));
        // Ops writes default their actor to the token's name.
        const scope = currentScope();
        if (scope && !req.get('x-actor') && principal.kind === 'ops') scope.actor = principal.name;
        return createContext({ em, principal, services, requestId: scope?.requestId ?? '' });
      },
    }),
  );

  // Providers' signed outcome callbacks, apart from both REST surfaces (src/supply/callback.routes.ts).
  app.use(SUPPLY_PREFIX, (req, _res, next) => runInScope({ requestId: req.get('x-request-id') || undefined }, next), supplyCallbackRouter({ orm: deps.orm, services }));

  app.use((_req, res) => {
    res.status(404).json(failure('not found'));
  });
  app.use((err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    logger.error({ err }, 'unhandled failure');
    if (!res.headersSent) res.status(500).json(failure('internal server error'));
  });

  return {
    server,
    services,
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
      }),
    async close() {
      await apollo.stop();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
