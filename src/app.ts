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
import { defaultEventsConfig, type Config, type EventsConfig } from './config';
import { createEventBus } from './events/pubsub';
import { EventRelay, listenForDeliveries } from './events/relay';
import { DeliveryWorker } from './events/webhook-delivery';
import { WebhookSender } from './events/webhook-sender';
import { EndpointGuard } from './modules/webhook/endpoint-guard';
import { readFileSync } from 'node:fs';
import { WebSocketServer } from 'ws';
import { createContext, type GatewayContext } from './graphql/context';
import { formatError } from './graphql/format-error';
import { graphqlPrincipal } from './graphql/principal';
import { gatewaySchema } from './graphql/schema';
import { followCommittedChanges } from './events/cache-follower';
import { createServices, type Services } from './services';
import { SUPPLY_PREFIX, supplyCallbackRouter } from './supply/callback.routes';
import type { SupplyProvidersConfig } from './supply/provider';
import { operations } from './ops/operations';

export const REST_PREFIX = '/api/v1';
export const GRAPHQL_PATH = '/graphql';

export interface Gateway {
  server: Server;
  services: Services;
  /** Starts listening; resolves with the bound port. */
  listen(port: number, host: string): Promise<number>;
  /** The event relay and the webhook delivery worker, running unless the gateway was built without them. */
  background: {
    start(): Promise<void>;
    /** Lets the current cycle finish, then stops; nothing is lost (work left stays in the database). */
    stop(): Promise<void>;
  };
  /** Stops taking requests, lets in-flight ones finish, then stops. */
  close(): Promise<void>;
}

export interface GatewayDeps {
  config: Pick<Config, 'env' | 'bodyLimit'> & Partial<Pick<Config, 'jwt' | 'trustProxy' | 'graphqlIntrospection' | 'metricsToken'>>;
  orm: MikroORM;
  clock: Clock;
  /** Supply-side platforms by provider id (Config.supplyProviders). */
  supply?: SupplyProvidersConfig;
  /** Events settings (relay, webhooks, subscriptions); unset ones take their defaults. */
  events?: Partial<EventsConfig>;
  /** Start the event relay and the delivery worker (default true; tests that do not need them turn them off). */
  background?: boolean;
  /** Lifetime of read-cache entries (default READ_CACHE_TTL_MS). */
  readCacheTtlMs?: number;
}

/** One HTTP server: the REST facade under /api/v1 and GraphQL (with Sandbox) at /graphql. */
export async function createGateway(deps: GatewayDeps): Promise<Gateway> {
  const schema = gatewaySchema();
  const events: EventsConfig = { ...defaultEventsConfig(), ...deps.events };
  // Request ids, metrics, readiness and the API reference (src/ops/operations.ts).
  const ops = operations({ orm: deps.orm, clock: deps.clock, metricsToken: deps.config.metricsToken ?? null });
  const bus = createEventBus(events.redisUrl, events.redisChannelPrefix);
  const eventBus = ops.metrics.instrumentBus(bus);
  const guard = new EndpointGuard(events.webhookAllowedHosts);
  const sender = new WebhookSender(
    { timeoutMs: events.webhookTimeoutMs, guard, extraCa: events.webhookCaFile ? readFileSync(events.webhookCaFile, 'utf8') : null, secretKey: events.webhookSecretKey },
    deps.clock,
  );
  const worker = new DeliveryWorker(deps.orm, eventBus, sender, deps.clock, {
    pollMs: events.pollMs,
    concurrency: events.webhookConcurrency,
    perEndpoint: events.webhookPerEndpoint,
    timeoutMs: events.webhookTimeoutMs,
  });
  const clientUrl = deps.orm.config.get('clientUrl');
  // The embedded database's socket server does not carry LISTEN: there the relay polls.
  const listen = clientUrl ? { connectionString: clientUrl } : null;
  const relay = new EventRelay(deps.orm, eventBus, deps.clock, { pollMs: events.pollMs, listen, onDeliveries: () => worker.wake() });
  const services = createServices({ clock: deps.clock, env: deps.config.env, jwt: deps.config.jwt, supply: deps.supply, readCacheTtlMs: deps.readCacheTtlMs, eventBus, webhooks: { guard, sender, recorder: worker, secretKey: events.webhookSecretKey } });
  // Committed events drop what they change from the read cache (src/common/read-cache.ts).
  deps.orm.em.getEventManager().registerSubscriber(readCacheSubscriber(services.readCache));
  // …and the changes other instances commit reach it through the bus.
  const cacheFollower = followCommittedChanges(bus, services.readCache); // not a subscription: uncounted
  const app = express();
  const server = createServer(app);
  const development = deps.config.env === 'development' || deps.config.env === 'test';

  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.trustProxy ?? false);
  app.use(ops.first);

  const apollo = new ApolloServer<GatewayContext>({
    schema,
    formatError,
    introspection: deps.config.graphqlIntrospection ?? development,
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer: server }),
      { serverWillStart: async () => ({ drainServer: async () => void (await wsCleanup.dispose()) }) },
      ops.metrics.apolloPlugin(),
      development ? ApolloServerPluginLandingPageLocalDefault({ embed: true, includeCookies: false }) : ApolloServerPluginLandingPageProductionDefault({ footer: false }),
    ],
  });
  // GraphQL subscriptions over graphql-ws on the same path (Apollo Sandbox finds them there).
  const wsServer = new WebSocketServer({ server, path: GRAPHQL_PATH });
  const { useServer } = require('graphql-ws/use/ws') as typeof import('graphql-ws/dist/use/ws');
  const wsCleanup = useServer(
    {
      schema,
      context: async (ctx) => {
        const params = ctx.connectionParams ?? {};
        const auth = (params.Authorization ?? params.authorization) as string | undefined;
        const em = deps.orm.em.fork();
        const principal = await graphqlPrincipal(services, em, typeof auth === 'string' ? auth : undefined);
        return createContext({ em, principal, services, requestId: 'ws' });
      },
      onConnect: async (ctx) => {
        const params = ctx.connectionParams ?? {};
        const auth = (params.Authorization ?? params.authorization) as string | undefined;
        try {
          await graphqlPrincipal(services, deps.orm.em.fork(), typeof auth === 'string' ? auth : undefined);
          return true;
        } catch {
          return false; // closes with 4403 Forbidden
        }
      },
    },
    wsServer,
  );

  await apollo.start();

  ops.mount(app, REST_PREFIX, SURFACE_R, SURFACE_O);

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

  let running = false;
  const background = {
    async start() {
      if (running) return;
      running = true;
      await relay.start();
      worker.start();
    },
    async stop() {
      if (!running) return;
      running = false;
      await relay.stop();
      await worker.stop();
    },
  };
  const deliveryListener = await listenForDeliveries(listen, () => worker.wake());
  if (deps.background ?? true) await background.start();

  return {
    server,
    services,
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
      }),
    background,
    async close() {
      await apollo.stop();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
      await background.stop();
      await cacheFollower.stop();
      sender.close();
      await deliveryListener?.end().catch(() => undefined);
      await eventBus.close();
    },
  };
}
