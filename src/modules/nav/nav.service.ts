import { DECIMAL_COLUMN, VOLUME_COLUMN } from '../../common/money';
import type { Clock } from '../../common/clock';
import type { ReadCache } from '../../persistence/read-cache';
import { rawRows } from '../../persistence/raw-query';
import { readRecord, rowRecord, type EntityRecord } from '../../persistence/read-record';
import type { ServiceContext } from '../../access/service-context';
import { nonNegativeDecimal, optionalEpochMs } from '../../common/validate';
import { appendEvent } from '../../events/event-log';
import type { ShareClassService } from '../share-class/share-class.service';
import { entryIdOf, Nav } from './nav.entity';
import { navEntryExists, navInTheFuture, noNavPublished } from './nav.errors';

/** Without both bounds, history is the last this many entries. */
export const NAV_HISTORY_DEFAULT_SIZE = 100;

/**
 * How far ahead of the gateway's clock a NAV's `publishedAt` may be: a NAV is struck, never
 * predicted, and this only forgives the clock of the machine that struck it. Such a NAV is stored
 * but, like every NAV, read (live, history, pricing) only once its `publishedAt` is reached.
 */
export const NAV_CLOCK_SKEW_MS = 60_000;

/** A cached live NAV and when it stops being live (the next NAV's `publishedAt`, already stored within the skew). */
interface LiveNav {
  nav: EntityRecord<Nav> | null;
  until: number | null;
}

export interface PublishNavInput {
  shareClassId: string;
  close: string;
  open?: string | null;
  high?: string | null;
  low?: string | null;
  volume?: string | null;
  publishedAt?: Date | null;
}

export class NavService {
  constructor(
    private readonly shareClasses: ShareClassService,
    private readonly clock: Clock,
    private readonly cache: ReadCache,
  ) {}

  /**
   * The latest NAV of a share class the caller can see, as a read-only record: cached per share
   * class and dropped by `nav.published` once its publication commits, so it is live at once.
   */
  async live(ctx: ServiceContext, shareClassId: unknown): Promise<EntityRecord<Nav>> {
    const sc = await this.shareClasses.readVisible(ctx, shareClassId);
    const nav = await this.latestRecord(ctx, sc.id);
    if (!nav) throw noNavPublished();
    return nav;
  }

  /**
   * `latest` as a cached read-only record (pricing and the live NAV read it; nothing may change it).
   * A cached answer is served only while it is still `latest`'s answer by the clock: not once a NAV
   * stored within the skew reaches its `publishedAt`, nor for a NAV the clock has not reached.
   */
  async latestRecord(ctx: ServiceContext, shareClassId: string): Promise<EntityRecord<Nav> | null> {
    const live = await this.cache.liveNavs.get(
      shareClassId,
      async (): Promise<LiveNav> => {
        const now = this.clock.now();
        const latest = await this.latest(ctx, shareClassId, now);
        const [next] = await rawRows<{ at: Date | null }>(ctx.em, 'select min(published_at) as at from "nav" where share_class_id = ? and published_at > ?', [
          shareClassId,
          now,
        ]);
        return { nav: latest ? navRecord(latest) : null, until: next?.at ? new Date(next.at).getTime() : null };
      },
      (cached) => {
        const { nav, until } = cached as LiveNav;
        const now = this.clock.now().getTime();
        return (until === null || now < until) && (!nav || nav.publishedAt.getTime() <= now);
      },
    );
    return (live as LiveNav | undefined)?.nav ?? null;
  }

  /**
   * The live NAV: the latest by `publishedAt` at or before now (`at`), or null. Pricing uses this
   * without the visibility check; a NAV the clock has not reached prices nothing.
   */
  async latest(ctx: Pick<ServiceContext, 'em'>, shareClassId: string, at: Date = this.clock.now()): Promise<Nav | null> {
    return ctx.em.findOne(Nav, { shareClass: shareClassId, publishedAt: { $lte: at } }, { orderBy: { publishedAt: 'desc' } });
  }

  /**
   * History ascending by `publishedAt`, of NAVs the clock has reached: with both bounds the
   * inclusive range; with neither, or only one of them, the last 100 entries.
   */
  async history(ctx: ServiceContext, shareClassId: unknown, startDate?: unknown, endDate?: unknown): Promise<EntityRecord<Nav>[]> {
    const sc = await this.shareClasses.readVisible(ctx, shareClassId);
    const start = optionalEpochMs(startDate, 'startDate');
    const end = optionalEpochMs(endDate, 'endDate');
    const now = this.clock.now();
    // Plain rows as read-only records: hydrating and tracking 100 entities cost more than the SQL.
    if (start && end) {
      const rows = await rawRows(
        ctx.em,
        'select * from "nav" where share_class_id = ? and published_at >= ? and published_at <= least(?::timestamptz, ?::timestamptz) order by published_at asc',
        [sc.id, start, end, now],
      );
      return rows.map((row) => rowRecord(ctx.em, Nav, row));
    }
    const latest = await rawRows(ctx.em, 'select * from "nav" where share_class_id = ? and published_at <= ? order by published_at desc limit ?', [
      sc.id,
      now,
      NAV_HISTORY_DEFAULT_SIZE,
    ]);
    return latest.reverse().map((row) => rowRecord(ctx.em, Nav, row));
  }

  /**
   * Ops publish a NAV struck now or before (`publishedAt`, default now; a 400 beyond
   * NAV_CLOCK_SKEW_MS ahead); it is live once its `publishedAt` is reached and announced through
   * the event log. Every door that publishes (GraphQL, the console, the seed) comes here.
   */
  async publish(ctx: ServiceContext, input: PublishNavInput): Promise<Nav> {
    ctx.access.requireOps();
    const sc = await this.shareClasses.getVisible(ctx, input.shareClassId);
    const close = nonNegativeDecimal(input.close, 'close', DECIMAL_COLUMN);
    const now = this.clock.now();
    const publishedAt = input.publishedAt ?? now;
    if (publishedAt.getTime() > now.getTime() + NAV_CLOCK_SKEW_MS) throw navInTheFuture(NAV_CLOCK_SKEW_MS);
    const entryId = entryIdOf(publishedAt);
    if (await ctx.em.count(Nav, { shareClass: sc.id, entryId })) throw navEntryExists(entryId);
    const nav = ctx.em.create(Nav, {
      shareClass: sc,
      entryId,
      close,
      open: input.open != null ? nonNegativeDecimal(input.open, 'open', DECIMAL_COLUMN) : close,
      high: input.high != null ? nonNegativeDecimal(input.high, 'high', DECIMAL_COLUMN) : close,
      low: input.low != null ? nonNegativeDecimal(input.low, 'low', DECIMAL_COLUMN) : close,
      currency: sc.currency,
      volume: input.volume != null ? nonNegativeDecimal(input.volume, 'volume', VOLUME_COLUMN) : '0',
      publishedAt,
    });
    appendEvent(ctx.em, {
      type: 'nav.published',
      aggregateType: 'share_class',
      aggregateId: sc.id,
      payload: { shareClassId: sc.id, entryId, close, publishedAt: publishedAt.getTime() },
      occurredAt: this.clock.now(),
    });
    await ctx.em.flush();
    return nav;
  }
}

/** A NAV as frozen data with the entity's fields (shared by the requests reading it from the cache). */
function navRecord(nav: Nav): EntityRecord<Nav> {
  return readRecord(Nav, {
    id: nav.id,
    shareClass: Object.freeze({ id: nav.shareClass.id }),
    entryId: nav.entryId,
    close: nav.close,
    open: nav.open,
    high: nav.high,
    low: nav.low,
    currency: nav.currency,
    volume: nav.volume,
    publishedAt: nav.publishedAt,
    createdAt: nav.createdAt,
    updatedAt: nav.updatedAt,
    createdBy: nav.createdBy,
    updatedBy: nav.updatedBy,
  });
}
