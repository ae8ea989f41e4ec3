import { DECIMAL_COLUMN, decimalString, VOLUME_COLUMN } from '../../common/money';
import { principalLabel } from '../../access/principal';
import type { Clock } from '../../common/clock';
import type { ReadCache } from '../../persistence/read-cache';
import { readRecord, rowRecord, type EntityRecord } from '../../persistence/read-record';
import type { ServiceContext } from '../../access/service-context';
import { nonNegativeDecimal, optionalEpochMs } from '../../common/validate';
import { appendEvent } from '../../events/event-log';
import { navToleranceBps, type ShareClass, type ShareClassService } from '../share-class';
import { movePercent, navMove, PendingNav, withinTolerance, type NavConfirmations, type PendingNavArgs } from './nav-confirmation';
import { entryIdOf, Nav } from './nav.entity';
import { latestNavRows, navRowsInRange, nextNavPublishedAt } from './nav.queries';
import { navEntryExists, navInTheFuture, navPreviousChanged, noNavPublished } from './nav.errors';

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
    private readonly confirmations: NavConfirmations,
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
        const next = await nextNavPublishedAt(ctx.em, shareClassId, now);
        return { nav: latest ? navRecord(latest) : null, until: next ? next.getTime() : null };
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
      const rows = await navRowsInRange(ctx.em, sc.id, start, end, now);
      return rows.map((row) => rowRecord(ctx.em, Nav, row));
    }
    const latest = await latestNavRows(ctx.em, sc.id, now, NAV_HISTORY_DEFAULT_SIZE);
    return latest.reverse().map((row) => rowRecord(ctx.em, Nav, row));
  }

  /**
   * Ops publish a NAV struck now or before (`publishedAt`, default now; a 400 beyond
   * NAV_CLOCK_SKEW_MS ahead); every door that publishes (GraphQL, the console, the seed) comes here.
   * Within the share class's tolerance of the previous confirmed NAV (or the class's first), it is
   * confirmed, live once its `publishedAt` is reached and announced through the event log; outside
   * it, it waits for a second principal as a `nav_confirmation` request (nav-confirmation.ts) and the
   * answer is that pending NAV: nothing is stored in `nav`, nothing is announced, nothing prices.
   */
  async publish(ctx: ServiceContext, input: PublishNavInput): Promise<Nav> {
    ctx.access.requireOps();
    const sc = await this.shareClasses.getVisible(ctx, input.shareClassId);
    const close = nonNegativeDecimal(input.close, 'close', DECIMAL_COLUMN);
    const now = this.clock.now();
    const publishedAt = input.publishedAt ?? now;
    if (publishedAt.getTime() > now.getTime() + NAV_CLOCK_SKEW_MS) throw navInTheFuture(NAV_CLOCK_SKEW_MS);
    const entryId = entryIdOf(publishedAt);
    await this.refuseTakenEntry(ctx, sc.id, entryId);
    const fields = {
      entryId,
      close,
      open: input.open != null ? nonNegativeDecimal(input.open, 'open', DECIMAL_COLUMN) : close,
      high: input.high != null ? nonNegativeDecimal(input.high, 'high', DECIMAL_COLUMN) : close,
      low: input.low != null ? nonNegativeDecimal(input.low, 'low', DECIMAL_COLUMN) : close,
      currency: sc.currency,
      volume: input.volume != null ? nonNegativeDecimal(input.volume, 'volume', VOLUME_COLUMN) : '0',
      publishedAt,
    };
    const struckBy = principalLabel(ctx.access.principal)!;
    // The class's first NAV has nothing to move against: it is the launch price, confirmed at once.
    const previous = await this.previousConfirmed(ctx, sc.id, publishedAt);
    const toleranceBps = navToleranceBps(sc);
    const move = previous ? navMove(previous.close, close) : null;
    if (!previous || withinTolerance(move, toleranceBps)) return this.insert(ctx, sc, fields, { struckBy });

    const pending: PendingNavArgs = {
      shareClassId: sc.id,
      ...fields,
      publishedAt: publishedAt.getTime(),
      previousEntryId: previous.entryId,
      previousClose: decimalString(previous.close),
      movePercent: movePercent(move),
      toleranceBps,
    };
    const reason =
      `NAV ${close} ${sc.currency} of ${publishedAt.toISOString()} moves ${pending.movePercent ?? 'from 0'}% against the confirmed ` +
      `${pending.previousClose} of ${previous.publishedAt.toISOString()}, outside the share class's tolerance of ${toleranceBps / 100}%`;
    const requestId = await this.confirmations.request(ctx, pending, reason);
    return Object.assign(new PendingNav(), { shareClass: sc, ...fields, struckBy, confirmedBy: null, approvalRequestId: requestId });
  }

  /**
   * A pending NAV confirmed by a second principal (the approval of its `nav_confirmation` request,
   * in the approver's transaction): inserted with its original `publishedAt`, live if it is the
   * latest, and announced now — not before.
   */
  async confirmPending(ctx: ServiceContext, nav: PendingNavArgs, struckBy: string, requestId: string): Promise<Nav> {
    const sc = await this.shareClasses.getVisible(ctx, nav.shareClassId);
    await this.refuseTakenEntry(ctx, sc.id, nav.entryId);
    // The request binds what the approver saw: the move against that previous NAV, and no other.
    const previous = await this.previousConfirmed(ctx, sc.id, new Date(nav.publishedAt));
    if (previous?.entryId !== nav.previousEntryId) throw navPreviousChanged(nav.entryId, nav.previousEntryId);
    const { entryId, close, open, high, low, currency, volume } = nav;
    return this.insert(
      ctx,
      sc,
      { entryId, close, open, high, low, currency, volume, publishedAt: new Date(nav.publishedAt) },
      { struckBy, confirmedBy: principalLabel(ctx.access.principal), confirmationRequestId: requestId },
    );
  }

  /** The confirmed NAV a new one at `publishedAt` moves against: the latest at or before it, else (one dated before them all) the earliest. */
  private async previousConfirmed(ctx: ServiceContext, shareClassId: string, publishedAt: Date): Promise<Nav | null> {
    return (
      (await ctx.em.findOne(Nav, { shareClass: shareClassId, publishedAt: { $lte: publishedAt } }, { orderBy: { publishedAt: 'desc' } })) ??
      (await ctx.em.findOne(Nav, { shareClass: shareClassId, publishedAt: { $gt: publishedAt } }, { orderBy: { publishedAt: 'asc' } }))
    );
  }

  private async refuseTakenEntry(ctx: ServiceContext, shareClassId: string, entryId: string): Promise<void> {
    if (await ctx.em.count(Nav, { shareClass: shareClassId, entryId })) throw navEntryExists(entryId);
  }

  private async insert(
    ctx: ServiceContext,
    sc: ShareClass,
    fields: Pick<Nav, 'entryId' | 'close' | 'open' | 'high' | 'low' | 'currency' | 'volume' | 'publishedAt'>,
    by: Pick<Nav, 'struckBy' | 'confirmedBy' | 'confirmationRequestId'>,
  ): Promise<Nav> {
    const nav = ctx.em.create(Nav, { shareClass: sc, ...fields, ...by });
    appendEvent(ctx.em, {
      type: 'nav.published',
      aggregateType: 'share_class',
      aggregateId: sc.id,
      payload: { shareClassId: sc.id, entryId: fields.entryId, close: fields.close, publishedAt: fields.publishedAt.getTime() },
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
    struckBy: nav.struckBy,
    confirmedBy: nav.confirmedBy,
    confirmationRequestId: nav.confirmationRequestId,
    originalClose: nav.originalClose,
    correctedBy: nav.correctedBy,
    correctedAt: nav.correctedAt,
    correctionReason: nav.correctionReason,
    correctionRequestId: nav.correctionRequestId,
  });
}
