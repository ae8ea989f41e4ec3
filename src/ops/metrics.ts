import type { ApolloServerPlugin } from '@apollo/server';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Kind, type OperationDefinitionNode } from 'graphql';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Clock } from '../common/clock';
import { TOPICS, type DeliveryOutcomeMessage, type EventBus } from '../events/pubsub';
import { REST_PREFIX } from '../../rest-compat/route';
import { stateGauges } from './state-gauges';

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
    stateGauges(this.registry, orm, clock);
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
