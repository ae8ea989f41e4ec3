import type { EventListener } from '../events/event-log';

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

  /**
   * The cached value, or `load`'s. `fresh` is the owner's own rule for a hit that time alone can
   * end before the TTL (a live NAV once the next one's `publishedAt` is reached): a hit it refuses
   * is loaded again.
   */
  async get(key: K, load: () => Promise<V | undefined>, fresh?: (value: V) => boolean): Promise<V | undefined> {
    const hit = this.entries.get(key);
    const now = Date.now();
    if (hit && hit.expires > now && (!fresh || fresh(hit.value))) return hit.value;
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
 * - on this instance synchronously once the change is committed (`readCacheListener`, wired in
 *   `createGateway`), so a reader that follows the write never sees the old value;
 * - on other instances when the lead's event relay/bus delivers the committed event, and until
 *   then after at most `READ_CACHE_TTL_MS`.
 * Keys per distributor (grants) are the distributor's id: one tenant's entry is never read for
 * another.
 */
export class ReadCache {
  /**
   * By hostname: its distributor and binding (`HostMapping`, owned by src/modules/distributor). The
   * cache knows only the distributor it names, which is what a distributor's event drops it by.
   */
  readonly hosts: Slot<string, { distributorId: string }>;
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
        this.hosts.deleteWhere((mapping, host) => mapping.distributorId === distributorId || host === hostname);
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
 * Feeds the cache the events this process writes (src/events/event-log.ts `onEvents`): what they
 * touch is dropped at the write itself, so a load racing the commit is not stored, and again once
 * it committed; nothing more on a rollback (nothing changed).
 */
export function readCacheListener(cache: ReadCache): EventListener {
  return { written: (event) => cache.onEvent(event), committed: (event) => cache.onEvent(event) };
}
