import type { ApolloServerPlugin } from '@apollo/server';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Kind, type OperationDefinitionNode } from 'graphql';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Clock } from '../common/clock';
import { logger } from '../common/logger';
import { TOPICS, type DeliveryOutcomeMessage, type EventBus } from '../events/pubsub';
import { REST_PREFIX } from '../../rest-compat/route';

/** Seconds: from a fast cached read to a push that waits on a slow platform. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The gateway's Prometheus metrics (prom-client), one registry per gateway. Request metrics are
 * observed as requests finish; database, relay and delivery figures are read at scrape time.
 */
export class GatewayMetrics {
  readonly registry = new Registry();

  /** Per REST route row (`GET /orders/:id`), or the path outside the facade (`/graphql`, `/metrics`). */
  private readonly httpDuration = new Histogram({
    name: 'gateway_http_request_duration_seconds',
    help: 'HTTP request duration by route row and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });

  private readonly httpResponses = new Counter({
    name: 'gateway_http_responses_total',
    help: 'HTTP responses by status code',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });

  private readonly graphqlDuration = new Histogram({
    name: 'gateway_graphql_operation_duration_seconds',
    help: 'GraphQL operation duration over HTTP by operation name and outcome',
    labelNames: ['operation', 'outcome'] as const,
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });

  private readonly webhookDeliveries = new Counter({
    name: 'gateway_webhook_deliveries_total',
    help: 'Webhook delivery attempts made by this instance, by outcome (success, failure)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  private readonly webhookLatency = new Histogram({
    name: 'gateway_webhook_delivery_duration_seconds',
    help: 'Webhook delivery attempt latency by outcome',
    labelNames: ['outcome'] as const,
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });

  private readonly openSubscriptions = new Gauge({
    name: 'gateway_graphql_subscriptions_open',
    help: 'GraphQL subscriptions open on this instance',
    registers: [this.registry],
  });

  constructor(orm: MikroORM, clock: Clock) {
    collectDefaultMetrics({ register: this.registry, prefix: 'gateway_' });
    databaseGauges(this.registry, orm, clock);
    reconciliationGauge(this.registry, orm);
    unknownWalletGauge(this.registry, orm);
    unansweredAuditGauge(this.registry, orm, clock);
  }

  /** Times a request from its arrival (both doors call it first, src/app.ts) and echoes nothing itself. */
  readonly time = (req: IncomingMessage & { originalUrl?: string }, res: ServerResponse): void => {
    const end = this.httpDuration.startTimer();
    res.on('finish', () => {
      const status = String(res.statusCode);
      end({ method: req.method, route: routeLabel(req, res), status });
      this.httpResponses.inc({ status });
    });
  };

  /**
   * Apollo plugin: duration per operation, labelled from a fixed set (operationLabel), never by
   * the client's free `operationName`: five requests with megabyte names once grew /metrics to
   * megabytes.
   */
  apolloPlugin(): ApolloServerPlugin {
    const histogram = this.graphqlDuration;
    return {
      async requestDidStart() {
        const end = histogram.startTimer();
        return {
          async willSendResponse(ctx) {
            end({ operation: operationLabel(ctx.operation), outcome: ctx.errors?.length ? 'error' : 'success' });
          },
        };
      },
    };
  }

  /**
   * The event bus as this gateway uses it, counted: subscriptions opened and closed, and the
   * delivery outcomes the local worker announces (each attempt once, by the instance that made it).
   */
  instrumentBus(bus: EventBus): EventBus {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the bus returned below has methods of its own, whose `this` is that bus
    const metrics = this;
    return {
      kind: bus.kind,
      close: () => bus.close(),
      async publish(topic, payload) {
        if (topic === TOPICS.delivery) metrics.deliveryOutcome(payload as DeliveryOutcomeMessage);
        return bus.publish(topic, payload);
      },
      iterator<T>(topics: string[]) {
        const inner = bus.iterator<T>(topics);
        metrics.openSubscriptions.inc();
        let open = true;
        const closed = () => {
          if (open) metrics.openSubscriptions.dec();
          open = false;
        };
        return {
          next: () => inner.next(),
          return: async (value?: unknown) => {
            closed();
            return inner.return ? inner.return(value) : { done: true as const, value: undefined };
          },
          throw: async (err?: unknown) => {
            closed();
            if (inner.throw) return inner.throw(err);
            throw err;
          },
          [Symbol.asyncIterator]() {
            return this;
          },
        } as AsyncIterableIterator<T>;
      },
    };
  }

  private deliveryOutcome(m: DeliveryOutcomeMessage): void {
    if (m.test) return;
    const outcome = m.success ? 'success' : 'failure';
    this.webhookDeliveries.inc({ outcome });
    this.webhookLatency.observe({ outcome }, m.latencyMs / 1000);
  }

  /** The text exposition format, for GET /metrics. */
  scrape(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

/**
 * The label of a GraphQL operation: its kind and first root field as the schema names them
 * (`query orders`, `mutation pushOrder`), a set the schema bounds, since the operation has passed
 * validation; `other` when none was resolved (a parse or validation failure, an unknown name).
 */
export function operationLabel(operation: OperationDefinitionNode | undefined): string {
  const first = operation?.selectionSet.selections[0];
  return operation && first?.kind === Kind.FIELD ? `${operation.operation} ${first.name.value}` : 'other';
}

/** Known mounts outside the facade; anything else is `other`, so labels stay few whatever is requested. */
const MOUNTS = new Set(['/graphql', '/metrics', '/ready', '/docs', '/supply']);

const routeNames = new WeakMap<ServerResponse, string>();

/** What a response answered, as its metrics label: a route row's path (`/orders/:id`) or a document's. */
export function nameRoute(res: ServerResponse, route: string): void {
  routeNames.set(res, route);
}

/** Route rows name themselves (nameRoute); elsewhere the mount, never the raw URL. */
export function routeLabel(req: IncomingMessage & { originalUrl?: string }, res: ServerResponse): string {
  const row = routeNames.get(res);
  if (row) return row;
  const path = (req.originalUrl ?? req.url ?? '').split('?')[0];
  // The REST door takes its prefix in any case, as express mounted it.
  if (path.toLowerCase().startsWith(REST_PREFIX)) return 'unmatched';
  const mount = '/' + (path.split('/')[1] ?? '');
  return MOUNTS.has(mount) ? mount : 'other';
}

interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  max: number;
}

/** Pool use, relay lag and pending deliveries, read when scraped (a failed read keeps the last value). */
function databaseGauges(registry: Registry, orm: MikroORM, clock: Clock): void {
  const pool = () => (orm.em.getConnection().getKnex().client as { pool?: TarnPool }).pool;
  new Gauge({
    name: 'gateway_db_pool_connections',
    help: 'Database pool connections by state (used, free, pending acquires, max)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const p = pool();
      this.set({ state: 'used' }, p?.numUsed() ?? 0);
      this.set({ state: 'free' }, p?.numFree() ?? 0);
      this.set({ state: 'pending' }, p?.numPendingAcquires() ?? 0);
      this.set({ state: 'max' }, p?.max ?? 0);
    },
  });
  new Gauge({
    name: 'gateway_event_relay_lag_seconds',
    help: 'Age of the oldest event not yet announced by the relay (0 when none waits)',
    registers: [registry],
    async collect() {
      await readOrKeep(async () => {
        const [row] = await orm.em
          .fork()
          .execute<{ oldest: Date | string | null }[]>(`select min(occurred_at) as oldest from "event" where relayed_at is null`);
        this.set(secondsSince(clock, row?.oldest));
      });
    },
  });
  new Gauge({
    name: 'gateway_webhook_deliveries_pending',
    help: 'Webhook deliveries waiting for an attempt or in flight',
    registers: [registry],
    async collect() {
      await readOrKeep(async () => {
        const [row] = await orm.em.fork().execute<{ n: string }[]>(`select count(*) as n from webhook_delivery where status in ('pending', 'in_flight')`);
        this.set(Number(row?.n ?? 0));
      });
    },
  });
}

/**
 * `register_chain_difference{share_class}`: the newest scheduled reconciliation's Σ |chain −
 * register| in tokens (src/modules/chain/reconciliation.ts); 0 when the register is true to the chain.
 */
function reconciliationGauge(registry: Registry, orm: MikroORM): void {
  new Gauge({
    name: 'register_chain_difference',
    help: 'Tokens by which the register and the chain differ, per share class, at the last scheduled reconciliation',
    labelNames: ['share_class'] as const,
    registers: [registry],
    async collect() {
      await readOrKeep(async () => {
        const rows = await orm.em
          .fork()
          .execute<{ share_class_id: string; total_difference: string }[]>(
            `select distinct on (share_class_id) share_class_id, total_difference::text from reconciliation_run order by share_class_id, at desc, id desc`,
          );
        this.reset();
        for (const r of rows) this.set({ share_class: r.share_class_id }, Number(r.total_difference));
      });
    },
  });
}

/**
 * `register_unknown_wallet_transfers{share_class}`: transfers to or from a wallet the register
 * does not know, at the newest scheduled reconciliation (its `unknownWalletTransfers`, each with
 * block and hash); an alert above 0.
 */
function unknownWalletGauge(registry: Registry, orm: MikroORM): void {
  new Gauge({
    name: 'register_unknown_wallet_transfers',
    help: 'Transfers to or from wallets the register does not know, per share class, at the last scheduled reconciliation',
    labelNames: ['share_class'] as const,
    registers: [registry],
    async collect() {
      await readOrKeep(async () => {
        const rows = await orm.em.fork().execute<{ share_class_id: string; n: number | null }[]>(
          `select share_class_id, jsonb_array_length(coalesce(result->'unknownWalletTransfers', '[]'::jsonb)) as n
           from (select distinct on (share_class_id) share_class_id, result from reconciliation_run order by share_class_id, at desc, id desc) last`,
        );
        this.reset();
        for (const r of rows) this.set({ share_class: r.share_class_id }, Number(r.n ?? 0));
      });
    },
  });
}

/**
 * `gateway_audit_log_unanswered_seconds`: how long the oldest ops mutation has been running without
 * an answer in the audit log (0 when none). A row stays `pending` for good when the gateway stopped
 * between the mutation and its seal (docs/approvals.md): an alert above the longest an ops mutation
 * may take (the chain waits included) names a mutation whose outcome must be read from its records.
 */
function unansweredAuditGauge(registry: Registry, orm: MikroORM, clock: Clock): void {
  new Gauge({
    name: 'gateway_audit_log_unanswered_seconds',
    help: 'Age of the oldest ops mutation in the audit log without an answer (0 when none)',
    registers: [registry],
    async collect() {
      await readOrKeep(async () => {
        const [row] = await orm.em.fork().execute<{ oldest: Date | string | null }[]>(`select min(at) as oldest from audit_log where outcome = 'pending'`);
        this.set(secondsSince(clock, row?.oldest));
      });
    },
  });
}

/** The age of the oldest thing waiting, in seconds by the gateway's clock; 0 when nothing waits. */
function secondsSince(clock: Clock, oldest: Date | string | null | undefined): number {
  return oldest ? Math.max(0, (clock.now().getTime() - new Date(oldest).getTime()) / 1000) : 0;
}

async function readOrKeep(read: () => Promise<void>): Promise<void> {
  try {
    await read();
  } catch (err) {
    logger.warn({ err: (err as Error).message }, 'metric not read from the database');
  }
}
