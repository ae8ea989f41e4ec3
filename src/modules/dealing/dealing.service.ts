import type Decimal from 'decimal.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DateTime } from 'luxon';
import type { Clock } from '../../common/clock';
import { badRequest } from '../../common/errors';
import { Dec } from '../../common/money';
import type { ReadCache } from '../../persistence/read-cache';
import type { ServiceContext } from '../../access/service-context';
import { intInRange, optional } from '../../common/validate';
import { appendEvent } from '../../events/event-log';
import { ShareClass, type ShareClassService, type SubRedemption, WEEKDAYS_MONDAY_TO_FRIDAY } from '../share-class';
import { DealingCalendar } from './dealing-calendar.entity';
import { storedDealingWeekdays } from './dealing.queries';
import { type CalendarRules, dealingDates, DEFAULT_CALENDAR, type DealingDates, isKnownZone } from './dealing-calendar';
import type { LockUp } from './lock-up';
import { belowMinimumInvestment, currencyNotAllowed } from './dealing.errors';
import type { DealingCalendarInput } from './dealing.types';

/** What placement needs of a share class's dealing set-up, cached per share class. */
export interface DealingRules {
  calendar: CalendarRules;
  /** The share class's currency first, then the settlement currencies ops allow. */
  currencies: readonly string[];
}

/** The share-class fields the dealing rules read (an entity or a cached ShareClassRecord). */
export type DealingShareClass = Pick<ShareClass, 'id' | 'currency'> & {
  subRedemption: Pick<SubRedemption, 'subFreq' | 'redFreq' | 'cutOffTime_days' | 'lockup'>;
  details: { minimumInvestment_fiat: number };
};

const TIME = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const SETTLEMENT_CURRENCY = /^[A-Z][A-Z0-9]{1,11}$/;

/**
 * The dealing rules of fund operations, applied by both order flows at placement: the dealing
 * calendar (dealing date, cut-off, expected settlement), the currencies an order may be placed
 * in and the minimum investment. The holding ledger applies the lock-up to a holding's lots
 * (holding-ledger.ts).
 */
export class DealingService {
  constructor(
    private readonly clock: Clock,
    private readonly cache: ReadCache,
    private readonly shareClasses: ShareClassService,
  ) {}

  /**
   * The share class's rules: its calendar, or DEFAULT_CALENDAR's fields without one, over its
   * dealing week (read cache; dropped by the share class's events, a calendar change's included).
   */
  async rulesOf(ctx: Pick<ServiceContext, 'em'>, shareClass: Pick<ShareClass, 'id' | 'currency'>): Promise<DealingRules> {
    const stored = (await this.cache.dealing.get(shareClass.id, async () => {
      // The dealing week is read here, not taken from the caller's copy of the share class, so a
      // copy read before a change cannot put the old week in the cache after the change.
      const week = await storedDealingWeekdays(ctx.em, shareClass.id);
      const cal = await ctx.em.findOne(DealingCalendar, { shareClass: shareClass.id });
      const fields = cal ? calendarFields(cal) : DEFAULT_FIELDS;
      return Object.freeze(rulesFrom(fields, week ?? WEEKDAYS_MONDAY_TO_FRIDAY));
    })) as StoredRules;
    return { calendar: stored.calendar, currencies: [shareClass.currency, ...stored.settlementCurrencies.filter((c) => c !== shareClass.currency)] };
  }

  /**
   * The terms of a subscription at placement, after the flow's own checks: its currency (400
   * naming the allowed codes), the minimum investment (400 naming it), then its dates.
   */
  async subscriptionTerms(
    ctx: Pick<ServiceContext, 'em'>,
    shareClass: DealingShareClass,
    order: { amount: Decimal.Value; currency: string | undefined; field: string; placedAt: Date },
  ): Promise<{ currency: string } & DealingDates> {
    const rules = await this.rulesOf(ctx, shareClass);
    const currency = this.currencyOf(rules, order.currency);
    this.assertMinimum(shareClass, order.amount, order.field);
    return { currency, ...this.datesOf(rules, shareClass, 'subscription', order.placedAt) };
  }

  /** The dates of a redemption placed at `placedAt`. */
  async redemptionTerms(ctx: Pick<ServiceContext, 'em'>, shareClass: DealingShareClass, placedAt: Date): Promise<DealingDates> {
    return this.datesOf(await this.rulesOf(ctx, shareClass), shareClass, 'redemption', placedAt);
  }

  /** An order's dates at placement: the flow's frequency (`subFreq`/`redFreq`) and `cutOffTime_days`. */
  datesOf(rules: DealingRules, shareClass: DealingShareClass, kind: 'subscription' | 'redemption', placedAt: Date): DealingDates {
    const s = shareClass.subRedemption;
    return dealingDates(rules.calendar, placedAt, kind === 'subscription' ? s.subFreq : s.redFreq, s.cutOffTime_days);
  }

  /** The order's currency (upper-cased; the share class's when none is sent), or 400 naming the allowed codes. */
  currencyOf(rules: DealingRules, requested: string | undefined): string {
    if (requested === undefined) return rules.currencies[0];
    const code = requested.trim().toUpperCase();
    if (!rules.currencies.includes(code)) throw currencyNotAllowed(rules.currencies);
    return code;
  }

  /** A subscription amount at or above `details.minimumInvestment_fiat` (a settlement currency counts one to one). */
  assertMinimum(shareClass: DealingShareClass, amount: Decimal.Value, field: string): void {
    const minimum = new Dec(shareClass.details.minimumInvestment_fiat ?? 0);
    if (new Dec(amount).lessThan(minimum)) throw belowMinimumInvestment(field, minimum.toFixed(), shareClass.currency);
  }

  /** The share class's lock-up as the holding ledger applies it to lots (lock-up.ts); null without one. */
  async lockUpOf(em: EntityManager, shareClass: DealingShareClass): Promise<LockUp | null> {
    const days = shareClass.subRedemption.lockup;
    if (!days) return null;
    return { days, timeZone: (await this.rulesOf({ em }, shareClass)).calendar.timeZone };
  }

  /** The calendar of a share class as ops configured it; null without one. */
  async calendarOf(ctx: ServiceContext, shareClassId: string): Promise<DealingCalendar | null> {
    return ctx.em.findOne(DealingCalendar, { shareClass: shareClassId });
  }

  /** Ops: create or change a share class's calendar; absent fields keep their value. */
  async setCalendar(ctx: ServiceContext, shareClassId: unknown, input: DealingCalendarInput): Promise<DealingCalendar> {
    ctx.access.requireOps();
    const sc = await this.shareClasses.getVisible(ctx, shareClassId);
    const cal = (await this.calendarOf(ctx, sc.id)) ?? ctx.em.create(DealingCalendar, { shareClass: sc });
    applyCalendarInput(cal, input);
    this.changed(ctx, sc.id, { fields: Object.keys(input).filter((k) => (input as Record<string, unknown>)[k] != null) });
    await ctx.em.flush();
    return cal;
  }

  /** Ops: add holidays (`YYYY-MM-DD`) to a share class's calendar, creating it with the defaults if needed. */
  async addHolidays(ctx: ServiceContext, shareClassId: unknown, dates: string[]): Promise<DealingCalendar> {
    ctx.access.requireOps();
    const sc = await this.shareClasses.getVisible(ctx, shareClassId);
    const cal = (await this.calendarOf(ctx, sc.id)) ?? ctx.em.create(DealingCalendar, { shareClass: sc });
    cal.holidays = holidayList([...cal.holidays, ...dates]);
    this.changed(ctx, sc.id, { added: dates });
    await ctx.em.flush();
    return cal;
  }

  /** Ops: remove holidays from a share class's calendar. */
  async removeHolidays(ctx: ServiceContext, shareClassId: unknown, dates: string[]): Promise<DealingCalendar | null> {
    ctx.access.requireOps();
    const sc = await this.shareClasses.getVisible(ctx, shareClassId);
    const cal = await this.calendarOf(ctx, sc.id);
    if (!cal) return null;
    const gone = new Set(dates);
    cal.holidays = cal.holidays.filter((d) => !gone.has(d));
    this.changed(ctx, sc.id, { removed: dates });
    await ctx.em.flush();
    return cal;
  }

  /**
   * Ops: the next `count` dealing dates of a share class from `from` (default now), for
   * subscriptions and for redemptions, under its stored calendar or, with `draft`, the calendar as
   * it would be after `setCalendar(draft)` (the same checks and messages): the dates placement
   * would give orders placed then, each next one for an order placed at the previous cut-off.
   */
  async preview(ctx: ServiceContext, shareClassId: unknown, draft: DealingCalendarInput | null, from: Date | null, count: unknown): Promise<DealingPreview> {
    ctx.access.requireOps();
    const n = intInRange(count, 'count', 1, MAX_PREVIEW);
    const sc = await this.shareClasses.getVisible(ctx, shareClassId);
    const stored = await this.calendarOf(ctx, sc.id);
    const fields: CalendarFields = stored ? calendarFields(stored) : { ...calendarFields(DEFAULT_FIELDS) };
    if (draft) applyCalendarInput(fields, draft);
    const { calendar, settlementCurrencies } = rulesFrom(fields, sc.dealingWeekdays);
    const rules: DealingRules = { calendar, currencies: [sc.currency, ...settlementCurrencies.filter((c) => c !== sc.currency)] };
    const walk = (kind: 'subscription' | 'redemption') => {
      const out: DealingDates[] = [];
      for (let at = from ?? this.clock.now(); out.length < n;) {
        const dates = this.datesOf(rules, sc, kind, at);
        out.push(dates);
        at = dates.cutOffAt;
      }
      return out;
    };
    return {
      ...fields,
      dealingWeekdays: [...calendar.dealingWeekdays],
      configured: stored !== null,
      currencies: [...rules.currencies],
      subscriptions: walk('subscription'),
      redemptions: walk('redemption'),
    };
  }

  /** The event of every calendar change (audit trail; drops the cached rules on every instance). */
  private changed(ctx: ServiceContext, shareClassId: string, payload: Record<string, unknown>): void {
    appendEvent(ctx.em, {
      type: 'share_class.dealing_updated',
      aggregateType: 'share_class',
      aggregateId: shareClassId,
      payload: { shareClassId, ...payload },
      occurredAt: this.clock.now(),
    });
  }
}

interface StoredRules {
  calendar: CalendarRules;
  settlementCurrencies: readonly string[];
}

/** Longest dealing-date preview. */
const MAX_PREVIEW = 50;

/** The fields of a calendar ops set. */
type CalendarFields = Pick<DealingCalendar, 'timeZone' | 'cutOffTime' | 'settlementLagDays' | 'anchorDate' | 'holidays' | 'settlementCurrencies'>;

/** A share class without a calendar, as calendar fields (DEFAULT_CALENDAR). */
const DEFAULT_FIELDS: CalendarFields = Object.freeze({ ...DEFAULT_CALENDAR, holidays: [], settlementCurrencies: [] });

const calendarFields = (c: CalendarFields): CalendarFields => ({
  timeZone: c.timeZone,
  cutOffTime: c.cutOffTime,
  settlementLagDays: c.settlementLagDays,
  anchorDate: c.anchorDate,
  holidays: [...c.holidays],
  settlementCurrencies: [...c.settlementCurrencies],
});

/** What a preview answers: the calendar it used (with the share class's dealing week), and the dates it gives. */
export type DealingPreview = CalendarFields & {
  dealingWeekdays: number[];
  configured: boolean;
  currencies: string[];
  subscriptions: DealingDates[];
  redemptions: DealingDates[];
};

/** The calendar fields `input` gives, checked, onto `cal`; absent fields keep their value. */
function applyCalendarInput(cal: CalendarFields, input: DealingCalendarInput): void {
  const zone = optional(input.timeZone, 'timeZone');
  if (zone !== undefined) {
    if (!isKnownZone(zone)) throw badRequest('timeZone must be an IANA time zone such as Europe/Luxembourg');
    cal.timeZone = zone;
  }
  const cutOff = optional(input.cutOffTime, 'cutOffTime');
  if (cutOff !== undefined) {
    if (!TIME.test(cutOff)) throw badRequest('cutOffTime must be HH:MM from 00:00 to 24:00');
    cal.cutOffTime = cutOff;
  }
  if (input.settlementLagDays != null) cal.settlementLagDays = intInRange(input.settlementLagDays, 'settlementLagDays', 0, 30);
  const anchor = optional(input.anchorDate, 'anchorDate');
  if (anchor !== undefined) cal.anchorDate = isoDate(anchor, 'anchorDate');
  if (input.holidays != null) cal.holidays = holidayList(input.holidays);
  if (input.settlementCurrencies != null) {
    const codes = input.settlementCurrencies.map((c) => (typeof c === 'string' ? c.trim() : c));
    if (!codes.every((c) => typeof c === 'string' && SETTLEMENT_CURRENCY.test(c)))
      throw badRequest('settlementCurrencies must be upper-case currency codes such as USDC');
    cal.settlementCurrencies = [...new Set(codes)];
  }
}

function rulesFrom(cal: CalendarFields, dealingWeekdays: readonly number[]): StoredRules {
  return {
    calendar: Object.freeze({
      timeZone: cal.timeZone,
      cutOffTime: cal.cutOffTime,
      settlementLagDays: cal.settlementLagDays,
      dealingWeekdays: new Set(dealingWeekdays),
      anchorDate: cal.anchorDate,
      holidays: new Set(cal.holidays),
    }),
    settlementCurrencies: Object.freeze([...cal.settlementCurrencies]),
  };
}

function isoDate(value: unknown, field: string): string {
  if (typeof value !== 'string' || !DATE.test(value) || !DateTime.fromISO(value).isValid) throw badRequest(`${field} must be a date YYYY-MM-DD`);
  return value;
}

function holidayList(dates: unknown[]): string[] {
  return [...new Set(dates.map((d) => isoDate(d, 'holidays')))].sort();
}
