import type { EntityManager, EventSubscriber, FlushEventArgs, TransactionEventArgs } from '@mikro-orm/core';
import { DomainEvent } from '../events/event.entity';

/** What the cache needs to know of a committed event (an `event` row). */
export interface CacheEvent {
  type: string;
  aggregateType: string;
  aggregateId: string;
  payload: Record<string, unknown>;
}

/** Safety net for changes made by another instance until its events reach this one. */
export const READ_CACHE_TTL_MS = 5_000;
/** A slot is emptied when it reaches this many entries (it never should: keys are existing records). */
const MAX_ENTRIES = 10_000;

/**
 * One slot: values by key, each with an expiry. A load stores its value only if no invalidation
 * of the slot happened while it ran (`generation`), so a read that started before a commit never
 * puts the pre-commit value back after the commit's invalidation.
 */
class Slot<K, V> {
  private readonly entries = new Map<K, { value: V; expires: number }>();
  private generation = 0;

  constructor(private readonly ttlMs: number) {}

  async get(key: K, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const hit = this.entries.get(key);
    const now = Date.now();
    if (hit && hit.expires > now) return hit.value;
    const generation = this.generation;
    const value = await load();
    if (value !== undefined && generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(key, { value, expires: Date.now() + this.ttlMs });
    }
    return value;
  }

  delete(key: K): void {
    this.generation++;
    this.entries.delete(key);
  }

  deleteWhere(test: (value: V, key: K) => boolean): void {
    this.generation++;
    for (const [key, e] of this.entries) if (test(e.value, key)) this.entries.delete(key);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}

/**
 * In-process cache of rarely-changing reference data read on every surface-R request: hostname
 * → distributor, a distributor's granted share classes, share classes (as frozen records) with
 * their primary token's chain, and each share class's live NAV.
 *
 * Services own what is cached and how it is loaded (`src/modules/*`); this module only keeps it
 * and forgets it. Invalidation is driven by the event log: every change to these records appends
 * an event in its unit of work, and `onEvent` drops what the event touches —
 * - on this instance synchronously once the change is committed (`readCacheSubscriber`, wired in
 *   `createGateway`), so a reader that follows the write never sees the old value;
 * - on other instances when the lead's event relay/bus delivers the committed event, and until
 *   then after at most `READ_CACHE_TTL_MS`.
 * Keys per distributor (grants) are the distributor's id: one tenant's entry is never read for
 * another.
 */
export class ReadCache {
  readonly hosts: Slot<string, string>;
  /** By distributor id: its lifecycle status (only `active` distributors are admitted). */
  readonly standings: Slot<string, string>;
  /** By distributor id: its granted share classes and their delivery mode. */
  readonly grants: Slot<string, ReadonlyMap<string, string>>;
  readonly shareClasses: Slot<string, unknown>;
  readonly liveNavs: Slot<string, unknown>;
  /** By share class id: its dealing calendar and settlement currencies (src/modules/dealing). */
  readonly dealing: Slot<string, unknown>;

  constructor(ttlMs = READ_CACHE_TTL_MS) {
    this.hosts = new Slot(ttlMs);
    this.standings = new Slot(ttlMs);
    this.grants = new Slot(ttlMs);
    this.shareClasses = new Slot(ttlMs);
    this.liveNavs = new Slot(ttlMs);
    this.dealing = new Slot(ttlMs);
  }

  /** Drops whatever a committed event may have changed; unknown events change nothing cached. */
  onEvent(event: CacheEvent): void {
    switch (event.aggregateType) {
      case 'share_class':
        // `nav.published`, `share_class.created|updated|dealing_updated`.
        this.shareClasses.delete(event.aggregateId);
        this.liveNavs.delete(event.aggregateId);
        this.dealing.delete(event.aggregateId);
        return;
      case 'token': {
        // The primary token gives a share class its `defaultChainId`.
        const shareClassId = event.payload.shareClassId;
        if (typeof shareClassId === 'string') this.shareClasses.delete(shareClassId);
        else this.shareClasses.clear();
        return;
      }
      case 'distributor': {
        // Host mappings, share-class grants and status.
        const distributorId = event.aggregateId;
        this.grants.delete(distributorId);
        this.standings.delete(distributorId);
        const hostname = event.payload.hostname;
        this.hosts.deleteWhere((id, host) => id === distributorId || host === hostname);
        return;
      }
    }
  }

  clear(): void {
    this.hosts.clear();
    this.standings.clear();
    this.grants.clear();
    this.shareClasses.clear();
    this.liveNavs.clear();
    this.dealing.clear();
  }
}

/**
 * Feeds the cache the events this process commits: after a flush outside a transaction (the
 * flush's own transaction is committed by then), or, for flushes inside `em.transactional`, when
 * that transaction commits (nothing is dropped on rollback: nothing changed). Events are also
 * dropped at the in-transaction flush itself, so a load racing the commit is not stored.
 */
export function readCacheSubscriber(cache: ReadCache): EventSubscriber {
  const pending = new WeakMap<EntityManager, CacheEvent[]>();
  const eventsOf = (args: FlushEventArgs): CacheEvent[] =>
    args.uow
      .getChangeSets()
      .filter((cs) => cs.entity instanceof DomainEvent)
      .map((cs) => cs.entity as DomainEvent);
  return {
    afterFlush(args: FlushEventArgs) {
      const events = eventsOf(args);
      if (!events.length) return;
      for (const e of events) cache.onEvent(e);
      if (args.em.isInTransaction()) {
        const list = pending.get(args.em) ?? [];
        list.push(...events);
        pending.set(args.em, list);
      }
    },
    afterTransactionCommit(args: TransactionEventArgs) {
      const list = pending.get(args.em);
      if (!list) return;
      pending.delete(args.em);
      for (const e of list) cache.onEvent(e);
    },
    afterTransactionRollback(args: TransactionEventArgs) {
      pending.delete(args.em);
    },
  };
}
