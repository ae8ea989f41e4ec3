import { logger } from '../common/logger';
import type { ReadCache } from '../persistence/read-cache';
import { TOPICS, type EventBus, type RelayedEvent } from './pubsub';

/**
 * Keeps this instance's read cache in step with changes committed by any instance: the relay
 * (whichever instance runs it) announces NAV publications and reference-data changes on the bus,
 * and each follower drops what they touch. The committing instance has already dropped them at
 * commit (readCacheListener); with Redis this reaches every other instance too, and without it
 * the cache's TTL bounds how long another instance may serve the old value.
 */
export function followCommittedChanges(bus: EventBus, cache: ReadCache): { stop(): Promise<void> } {
  const iterator = bus.iterator<RelayedEvent>([TOPICS.nav, TOPICS.reference]);
  const done = (async () => {
    for await (const event of iterator) cache.onEvent(event);
  })().catch((err) => logger.warn({ err }, 'read cache no longer follows committed changes'));
  return {
    async stop() {
      await iterator.return?.();
      await done;
    },
  };
}
