import 'reflect-metadata';
import express from 'express';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { SURFACE_O } from '../rest-compat/surface-o';
import { SURFACE_R } from '../rest-compat/surface-r';
import { failure } from '../rest-compat/envelope';
import { crossSiteGuard } from '../rest-compat/cross-site';
import { restRouter } from '../rest-compat/router';
import { REST_PREFIX } from '../rest-compat/route';
import { frontDoor, restTarget } from '../rest-compat/door';
import { sendEnvelope } from '../rest-compat/send';
import { OPENAPI_PATHS } from '../rest-compat/openapi/reference';
import { logger } from './common/logger';
import { bounded, CLOSE_BOUND_MS } from './common/bounded';
import { readCacheListener } from './persistence/read-cache';
import { runInDoorScope, runRequest } from './common/request-scope';
import { bodyLimitBytes, defaultEventsConfig, isDevelopmentEnv, type Config, type EventsConfig } from './config';
import type { Gateway, GatewayDeps } from './gateway';
import { onEvents } from './events/event-log';
import { createEventBus } from './events/pubsub';
import { EventRelay, listenForDeliveries } from './events/relay';
import { createDeliveries, DeliveryWorker, EndpointGuard, WebhookSender } from './modules/webhook';
import { MODULE_PARTS } from './modules/manifests';
import { readFileSync } from 'node:fs';
import proxyAddr from 'proxy-addr';
import { RateLimits, DEFAULT_RATE_LIMITS } from './access/rate-limit';
import { DEFAULT_QUOTAS, Quotas } from './access/quotas';
import { DEFAULT_GRAPHQL_LIMITS } from './config/graphql-limits';
import { GRAPHQL_PATH, graphqlTransport } from './transports/graphql/http-transport';
import { gatewaySchema } from './transports/graphql/schema';
import { followOpsTokenRevocations } from './modules/auth/ops-token-revocations';
import { followCommittedChanges } from './events/cache-follower';
import { createServices, FOLLOWER_PORTS } from './services';
import { CONSOLE_PATH, consoleRouter } from './console/serve-console';
import { CONSOLE_SESSION_PATH, consoleSessionRouter } from './console/console-session.routes';
import { SUPPLY_PREFIX, supplyCallbackRouter } from './supply/callback.routes';
import { operations } from './ops/operations';
import { registerRoutes } from './modules/register/register.routes';
import { Chains } from './modules/chain/chains';
import { ChainService } from './modules/chain/chain.service';
import { ChainSender } from './modules/chain/sender';
import { ChainFollower } from './modules/chain/follower';
import { ReconciliationSchedule } from './modules/register/reconciliation';
import { APPROVAL_POLL_MS, approvalWorker } from './modules/approval/approval-worker';
import { ChainSchedules } from './chain-schedules';

export { GRAPHQL_PATH, REST_PREFIX };
// The gateway's callers take its contract from where they take createGateway.
export type { Gateway, GatewayDeps };

/**
 * Every API answer (REST and GraphQL, errors included) holds one caller's view of the books: no
 * shared cache may keep it, and no browser may read it as anything but what its type says.
 */
function apiAnswerHeaders(res: ServerResponse): void {
  res.setHeader('cache-control', 'no-store');
  res.setHeader('x-content-type-options', 'nosniff');
}

/**
 * Plain HTTP, or HTTPS when TLS is configured. With a client CA, client certificates are asked
 * for but not required: a surface-R host bound to a fingerprint decides (host-binding.ts).
 */
function httpServer(tls: Config['tls']): Server {
  if (!tls) return createServer();
  return createTlsServer({ cert: tls.cert, key: tls.key, ...(tls.clientCa && { ca: tls.clientCa, requestCert: true, rejectUnauthorized: false }) });
}

/** One HTTP server: the REST facade under /api/v1 and GraphQL (with Sandbox) at /graphql. */
export async function createGateway(deps: GatewayDeps): Promise<Gateway> {
  const schema = gatewaySchema();
  const events: EventsConfig = { ...defaultEventsConfig(), ...deps.events };
  // Request ids, metrics, readiness and the API reference (src/ops/operations.ts).
  const development = isDevelopmentEnv(deps.config.env);
  const ops = operations({ orm: deps.orm, clock: deps.clock, metricsToken: deps.config.metricsToken ?? null, development });
  const bus = createEventBus(events.redisUrl, events.redisChannelPrefix);
  const eventBus = ops.metrics.instrumentBus(bus);
  const guard = new EndpointGuard(events.webhookAllowedHosts);
  const sender = new WebhookSender(
    {
      timeoutMs: events.webhookTimeoutMs,
      guard,
      extraCa: events.webhookCaFile ? readFileSync(events.webhookCaFile, 'utf8') : null,
      secretKey: events.webhookSecretKey,
    },
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
  const fanOut = createDeliveries(MODULE_PARTS.webhookEvents);
  const relay = new EventRelay(deps.orm, eventBus, deps.clock, { pollMs: events.pollMs, listen, fanOut, onDeliveries: () => worker.wake() });
  const rateLimits = RateLimits.create({ ...DEFAULT_RATE_LIMITS, ...deps.config.rateLimits }, events.redisUrl, events.redisChannelPrefix);
  const quotas = new Quotas({ ...DEFAULT_QUOTAS, ...deps.config.quotas }, rateLimits.redis, events.redisChannelPrefix);
  // The chains: one sender (the one writer of each agent key) runs whenever a chain has a key.
  const chains = new Chains(deps.chains ?? {});
  let chainSender: ChainSender | null = null;
  let chainSchedules: ChainSchedules | null = null;
  const chain = chains.all().length ? new ChainService(deps.orm, chains, () => chainSender) : null;
  const services = createServices({
    clock: deps.clock,
    env: deps.config.env,
    jwt: deps.config.jwt,
    supply: deps.supply,
    readCacheTtlMs: deps.readCacheTtlMs,
    opsTokenTtlSeconds: deps.config.opsTokenTtlSeconds,
    consoleSessionTtlSeconds: deps.config.consoleSessionTtlSeconds,
    recoveryDelaySeconds: deps.config.recoveryDelaySeconds,
    eventBus,
    rateLimits,
    quotas,
    webhooks: { guard, sender, recorder: worker, secretKey: events.webhookSecretKey },
    chain,
  });
  if (chain && chains.writable().length) {
    // The modules registered their outcome handlers on the port when the services were wired.
    chainSender = new ChainSender(deps.orm, chains, chain.declareOutcome, deps.chainPollMs);
    chainSender.start();
    chainSchedules = new ChainSchedules(deps.orm, { lockUp: services.lockUpOnChain!, wallets: services.walletOnChain! }, deps);
    chainSchedules.start();
  }
  // The register follows what moved on chain without the gateway (src/modules/chain/follower.ts).
  const chainFollower = chain ? new ChainFollower(deps.orm, chains, services.ledger, FOLLOWER_PORTS, deps.clock, deps.chainFollowMs) : null;
  chainFollower?.start();
  const reconciliation = services.reconciliation && new ReconciliationSchedule(deps.orm, services.reconciliation, deps.clock, deps.reconciliationIntervalMs);
  if (deps.reconcileAtOnce ?? true) reconciliation?.start();
  // Committed events drop what they change from the read cache (src/persistence/read-cache.ts).
  onEvents(deps.orm.em, readCacheListener(services.readCache));
  // …and the changes other instances commit reach it through the bus.
  const cacheFollower = followCommittedChanges(bus, services.readCache); // not a subscription: uncounted
  // Revoked ops tokens leave every instance's memory at once (src/modules/auth/ops-token-revocations.ts).
  const opsTokenFollower = await followOpsTokenRevocations(deps.orm, listen, services.opsToken);
  const app = express();
  const server = httpServer(deps.config.tls ?? null);

  app.disable('x-powered-by');
  // API answers are `no-store` and never revalidated: express's ETag, a hash of every body it
  // sends (GraphQL's), is work for nothing, as the REST door already found (rest-compat/send.ts).
  // The console's assets keep serve-static's own ETags; its page (`no-cache`, ~500 bytes, the one
  // other body express sends) is sent whole on each load instead of answering a revalidation 304.
  app.set('etag', false);
  app.set('trust proxy', deps.config.trustProxy ?? false);
  // Every door's rate limits count by the caller's address (behind TRUST_PROXY, the forwarded one).
  const clientAddress = (req: Parameters<typeof proxyAddr>[0]) => proxyAddr(req, app.get('trust proxy fn') as Parameters<typeof proxyAddr>[1]);
  // A request's arrival (its id and timer), then one scope per request with that id; the doors fill it in.
  app.use((req, res, next) => runRequest(ops.arrive(req, res), clientAddress(req), next));

  const graphql = await graphqlTransport({
    server,
    schema,
    orm: deps.orm,
    services,
    development,
    introspection: development && (deps.config.graphqlIntrospection ?? true),
    limits: deps.config.graphqlLimits ?? DEFAULT_GRAPHQL_LIMITS,
    bodyLimit: deps.config.bodyLimit,
    maxPayload: bodyLimitBytes(deps.config.bodyLimit),
    clientAddress,
    plugins: [ops.metrics.apolloPlugin()],
    websocketRecheckMs: deps.websocketRecheckMs,
  });

  const answerHeaders: express.RequestHandler = (_req, res, next) => (apiAnswerHeaders(res), next());
  app.use(REST_PREFIX, answerHeaders);
  // Pages on other sites get nothing from /api/v1 (rest-compat/cross-site.ts); /graphql has Apollo's CSRF prevention.
  const crossSite = crossSiteGuard(deps.config.corsAllowedOrigins ?? []);
  app.use(REST_PREFIX, (req, res, next) => crossSite(req, res) || next());

  ops.mount(app, REST_PREFIX, SURFACE_R, SURFACE_O);
  // The register's CSV exports for ops (src/modules/register/register.routes.ts).
  app.use(registerRoutes(deps.orm, services));

  // The REST facade is served ahead of express (rest-compat/door.ts), the same steps in the same order.
  const rest = restRouter({
    schema,
    orm: deps.orm,
    services,
    surfaceR: SURFACE_R,
    surfaceO: SURFACE_O,
    bodyLimit: deps.config.bodyLimit,
    // Development and test serve unbound hosts unless told otherwise; everywhere else they are refused.
    hostBindingRequired: deps.config.hostBindingRequired ?? !development,
  });
  const restDoor = frontDoor(
    REST_PREFIX,
    Object.values(OPENAPI_PATHS),
    (req, res, target) =>
      // The router fills the scope in itself, once the route (and so the default actor) is known.
      runRequest(ops.arrive(req, res), clientAddress(req), () => {
        apiAnswerHeaders(res);
        if (!crossSite(req, res)) rest(req, res, target);
      }),
    app,
  );
  // GraphQL over HTTP (graphql-ws shares the path) is served ahead of express too, for the same
  // reason (rest-compat/door.ts): src/transports/graphql/http-transport.ts. Its path is matched
  // as express mounted it; Apollo's CSRF prevention stands where the REST door's cross-site guard does.
  server.on('request', (req, res) => {
    if (!restTarget(req.url ?? '', GRAPHQL_PATH)) return restDoor(req, res);
    runRequest(ops.arrive(req, res), clientAddress(req), () => {
      apiAnswerHeaders(res);
      graphql.serve(req, res).catch((err: unknown) => {
        // What express's final handler did for a failure it was handed: logged, a 500, the process kept.
        logger.error({ err }, 'unhandled failure');
        if (!res.headersSent) sendEnvelope(res, 500, failure('internal server error'));
        else res.destroy();
      });
    });
  });

  // Providers' signed outcome callbacks, apart from both REST surfaces (src/supply/callback.routes.ts).
  app.use(
    SUPPLY_PREFIX,
    (req, _res, next) => runInDoorScope({ requestId: req.get('x-request-id') || undefined }, next),
    supplyCallbackRouter({ orm: deps.orm, services }),
  );

  // The console's session: an ops token exchanged once for a cookie (src/console/console-session.routes.ts).
  app.use(CONSOLE_SESSION_PATH, consoleSessionRouter(deps.orm, services));
  // The ops console's web page (src/console/serve-console.ts), a client of /graphql like any other.
  app.use(CONSOLE_PATH, consoleRouter({ development }));

  app.use((_req, res) => {
    res.status(404).json(failure('not found'));
  });
  app.use((err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    logger.error({ err }, 'unhandled failure');
    if (!res.headersSent) res.status(500).json(failure('internal server error'));
  });

  // Approved requests whose delay has passed run here (src/modules/approval/approval.service.ts).
  const approvals = approvalWorker(() => services.approval.runDue(deps.orm.em.fork()), APPROVAL_POLL_MS);
  let running = false;
  const background = {
    async start() {
      if (running) return;
      running = true;
      await relay.start();
      worker.start();
      approvals.start();
    },
    async stop() {
      if (!running) return;
      running = false;
      await Promise.all([relay.stop(), worker.stop(), approvals.stop()]);
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
    chainFollower,
    startReconciliation: () => reconciliation?.start(),
    drain: () => ops.drain(),
    async close() {
      // The loops and LISTEN connections stop first: no new pass, no reconnecting (work stays in the
      // database). Passes under way end within their bound (WakeLoop.stop) while requests finish:
      // after load on a database that is away, loops left running meanwhile failed, waited, and
      // added up to the forced exit. Ops tokens are then read from the database (not trusted memory).
      const loops = Promise.all([
        background.stop(),
        deliveryListener?.close(),
        opsTokenFollower.stop(),
        chainSchedules?.stop(),
        chainFollower?.stop(),
        reconciliation?.stop(),
      ]);
      // Stops listening; requests in flight get IN_FLIGHT_GRACE_MS to finish (graphql/http-transport.ts).
      await graphql.stop();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
      // The chain sender last: an ops deployment in flight waits for its passes. It gives up its
      // lease here, so another instance takes chain work at once.
      await Promise.all([loops, chainSender?.stop()]);
      await bounded("ending the chains' signer sessions", chains.close(), CLOSE_BOUND_MS);
      await cacheFollower.stop();
      sender.close();
      await eventBus.close();
      quotas.close();
      await rateLimits.close();
    },
  };
}
