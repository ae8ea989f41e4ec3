import { PubSub } from 'graphql-subscriptions';
import { RedisPubSub } from 'graphql-redis-subscriptions';
import { redisClient } from '../common/redis-client';

/** Topics of the subscriptions; payloads are plain JSON so they cross Redis unchanged. */
export const TOPICS = {
  order: 'gw.order.transition',
  nav: 'gw.nav.published',
  delivery: 'gw.webhook.delivery',
  /** A chain transaction became final (confirmed, reverted, failed), with what it settled. */
  chain: 'gw.chain.transaction',
  /** An approval request was made, decided, executed or failed (ops only). */
  approval: 'gw.approval.changed',
  /** Changes of reference data (share classes, tokens, host mappings, grants) that caches drop. */
  reference: 'gw.reference.changed',
} as const;

/** The topic a committed event is announced on, if any. */
export function topicOf(event: { type: string; aggregateType: string }): string | null {
  if (event.type === 'order.transition') return TOPICS.order;
  if (event.type === 'nav.published') return TOPICS.nav;
  if (event.type === 'chain.transaction_final') return TOPICS.chain;
  if (event.type === 'approval.changed') return TOPICS.approval;
  if (['share_class', 'token', 'distributor'].includes(event.aggregateType)) return TOPICS.reference;
  return null;
}

/** An event as the relay announces it. */
export interface RelayedEvent {
  eventId: string;
  position: string;
  type: string;
  aggregateType: string;
  aggregateId: string;
  distributorId: string | null;
  payload: Record<string, unknown>;
  /** Epoch ms. */
  occurredAt: number;
}

/** A webhook attempt's outcome as announced to subscribers. */
export interface DeliveryOutcomeMessage {
  deliveryId: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  distributorId: string;
  attempt: number;
  statusCode: number | null;
  success: boolean;
  error: string | null;
  status: string;
  latencyMs: number;
  attemptedAt: number;
  nextAttemptAt: number | null;
  test: boolean;
}

/**
 * Where the relay and the delivery worker announce, and subscriptions listen. In-process by
 * default; with Redis every instance's subscribers hear what any instance publishes.
 */
export interface EventBus {
  readonly kind: 'memory' | 'redis';
  /** Never fails: a message a Redis that is away cannot take is dropped (its outage logged once). */
  publish(topic: string, payload: unknown): Promise<void>;
  iterator<T>(topics: string[]): AsyncIterableIterator<T>;
  close(): Promise<void>;
}

export function createEventBus(redisUrl: string | null, channelPrefix = 'gw:'): EventBus {
  if (!redisUrl) {
    const pubsub = new PubSub();
    return {
      kind: 'memory',
      publish: (topic, payload) => pubsub.publish(topic, payload),
      iterator: <T>(topics: string[]) => pubsub.asyncIterableIterator<T>(topics) as AsyncIterableIterator<T>,
      close: async () => undefined,
    };
  }
  // Publishing fails fast while Redis is away and the message is dropped (live messages are lost,
  // webhooks never wait on subscriptions); the subscriber reconnects and resubscribes on its own.
  // Each client logs an outage once (OutageLog), not each reconnection or dropped message.
  const publisher = redisClient(redisUrl, 'redis (subscriptions, publishing)', { maxRetriesPerRequest: 1, enableOfflineQueue: false });
  const subscriber = redisClient(redisUrl, 'redis (subscriptions, listening)', { maxRetriesPerRequest: null });
  // RedisPubSub sends an unsubscription without waiting for it: one still queued for a Redis that
  // is away fails when the client closes, and must not become an unhandled rejection.
  for (const command of ['unsubscribe', 'punsubscribe'] as const) {
    const send = subscriber.redis[command].bind(subscriber.redis) as (...channels: string[]) => Promise<unknown>;
    Object.assign(subscriber.redis, { [command]: (...channels: string[]) => send(...channels).catch(() => undefined) });
  }
  const pubsub = new RedisPubSub({ publisher: publisher.redis, subscriber: subscriber.redis });
  const channel = (topic: string) => `${channelPrefix}${topic}`;
  return {
    kind: 'redis',
    publish: (topic, payload) => pubsub.publish(channel(topic), payload).catch((err) => void publisher.outage.lost(err)),
    iterator: <T>(topics: string[]) => pubsub.asyncIterableIterator<T>(topics.map(channel)) as AsyncIterableIterator<T>,
    async close() {
      // At once, whatever is pending: a reconnecting client stops trying, queued commands fail.
      publisher.redis.disconnect();
      subscriber.redis.disconnect();
    },
  };
}
