import { DateTime } from 'luxon';

/**
 * The dealing calendar of a share class, as plain data (no I/O): when an order placed at a
 * moment is dealt, when its cut-off falls and when it is expected to settle. Time zones and
 * daylight-saving changes are luxon's (the IANA database of the runtime), never hand-written
 * offsets.
 */
export interface CalendarRules {
  /** IANA zone in which dates and the cut-off time are read, e.g. `Europe/Luxembourg`. */
  timeZone: string;
  /** Cut-off time of day `HH:MM` in the zone; `24:00` is the end of the day. */
  cutOffTime: string;
  /** Settlement lag in business days after the dealing date. */
  settlementLagDays: number;
  /** The share class's dealing week: ISO weekdays (1 Monday … 7 Sunday) that are business days. */
  dealingWeekdays: ReadonlySet<number>;
  /** Non-business days besides the weekdays outside the dealing week, `YYYY-MM-DD`. */
  holidays: ReadonlySet<string>;
  /** First dealing day of an every-N-business-days cycle (`YYYY-MM-DD`). */
  anchorDate: string;
}

/** A share class with no calendar configured: every weekday in UTC, the cut-off at the end of the day. */
export const DEFAULT_CALENDAR: CalendarRules = Object.freeze({
  timeZone: 'UTC',
  cutOffTime: '24:00',
  settlementLagDays: 1,
  dealingWeekdays: new Set([1, 2, 3, 4, 5]),
  holidays: new Set<string>(),
  anchorDate: '2000-01-03',
});

export interface DealingDates {
  /** `YYYY-MM-DD` in the calendar's zone. */
  dealingDate: string;
  /** The cut-off for that dealing date; an order at or after it goes to the next dealing date. */
  cutOffAt: Date;
  /** `YYYY-MM-DD`: the dealing date plus the settlement lag in business days. */
  expectedSettlementDate: string;
}

/**
 * The dates of an order placed at `placedAt`.
 * - `frequency`: the share class's `subFreq` or `redFreq`: dealing every N business days counted
 *   from the calendar's anchor date (0 and 1: every business day).
 * - `cutOffDays`: the share class's `cutOffTime_days`: the cut-off of dealing date D is at the
 *   cut-off time on the business day that many business days from D (0: D itself, -1: the
 *   business day before).
 * The dealing date is the first dealing day whose cut-off is still ahead of `placedAt`.
 */
export function dealingDates(calendar: CalendarRules, placedAt: Date, frequency: number, cutOffDays: number): DealingDates {
  // Orders arrive in time order, and one answer holds from the moment it was computed for until its
  // cut-off (cut-offs only grow with the dealing day), so the last answer per calendar is kept:
  // time-zone arithmetic is costly (docs/benchmarks.md), a hit is free. Calendars are frozen
  // records, replaced (not changed) when ops change them, so the memo follows them.
  const key = `${frequency}:${cutOffDays}`;
  const t = placedAt.getTime();
  let memo = LAST_ANSWER.get(calendar);
  const hit = memo?.get(key);
  if (hit && t >= hit.from && t < hit.dates.cutOffAt.getTime()) return { ...hit.dates, cutOffAt: new Date(hit.dates.cutOffAt) };
  const dates = computeDealingDates(calendar, placedAt, frequency, cutOffDays);
  if (!memo) LAST_ANSWER.set(calendar, (memo = new Map<string, { from: number; dates: DealingDates }>()));
  memo.set(key, { from: t, dates: { ...dates, cutOffAt: new Date(dates.cutOffAt) } });
  return dates;
}

const LAST_ANSWER = new WeakMap<CalendarRules, Map<string, { from: number; dates: DealingDates }>>();

function computeDealingDates(calendar: CalendarRules, placedAt: Date, frequency: number, cutOffDays: number): DealingDates {
  const placed = DateTime.fromJSDate(placedAt, { zone: calendar.timeZone });
  // Dates are walked as plain day numbers; the zone is consulted only for each cut-off instant.
  // With the cut-off on or before the dealing day, no dealing day before today can still be open.
  let day = Date.UTC(placed.year, placed.month - 1, placed.day) / DAY_MS - (cutOffDays > 0 ? cutOffDays * 3 + 7 : 0);
  const every = Math.max(1, frequency);
  for (let i = 0; i < 3_700; i++, day++) {
    if (!isDealingDay(calendar, day, every)) continue;
    const cutOffAt = cutOffOf(calendar, day, cutOffDays);
    if (placedAt.getTime() < cutOffAt.getTime()) {
      return { dealingDate: isoOf(day), cutOffAt, expectedSettlementDate: isoOf(addBusinessDays(calendar, day, calendar.settlementLagDays)) };
    }
  }
  throw new Error(`no dealing day within ten years of ${placed.toISO()}`);
}

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of a day number (days since 1970-01-01). */
const isoOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
/** ISO weekday of a day number: 1 Monday … 7 Sunday (1970-01-01 was a Thursday). */
const weekdayOf = (day: number) => ((((day + 3) % 7) + 7) % 7) + 1;
const dayOfIso = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;

/** The days of the share class's dealing week that are not holidays are its business days. */
function isBusinessDay(calendar: CalendarRules, day: number): boolean {
  return calendar.dealingWeekdays.has(weekdayOf(day)) && !calendar.holidays.has(isoOf(day));
}

function isDealingDay(calendar: CalendarRules, day: number, every: number): boolean {
  if (!isBusinessDay(calendar, day)) return false;
  if (every === 1) return true;
  return businessDaysSinceAnchor(calendar, day) % every === 0;
}

/**
 * Business days from the anchor date up to (not including) `day`, negative before it: days of the
 * dealing week by arithmetic, less the holidays in between, so it costs the same whatever the
 * distance.
 */
function businessDaysSinceAnchor(calendar: CalendarRules, day: number): number {
  const anchor = dayOfIso(calendar.anchorDate);
  const [from, to, sign] = anchor <= day ? [anchor, day, 1] : [day, anchor, -1];
  let count = dealingWeekdaysBetween(calendar.dealingWeekdays, from, to);
  for (const h of calendar.holidays) {
    const d = dayOfIso(h);
    if (d >= from && d < to && calendar.dealingWeekdays.has(weekdayOf(d))) count--;
  }
  return sign * count;
}

/** Days of the dealing week in [from, to). */
function dealingWeekdaysBetween(week: ReadonlySet<number>, from: number, to: number): number {
  const days = to - from;
  let count = Math.floor(days / 7) * week.size;
  for (let d = from + Math.floor(days / 7) * 7; d < to; d++) if (week.has(weekdayOf(d))) count++;
  return count;
}

/** The cut-off instant of dealing day `day`: the cut-off time, in the zone, on the business day `cutOffDays` away. */
function cutOffOf(calendar: CalendarRules, day: number, cutOffDays: number): Date {
  const [hour, minute] = calendar.cutOffTime.split(':').map(Number);
  // `24:00` is the start of the next calendar day; a time skipped by a DST change moves forward (luxon).
  const date = new Date((addBusinessDays(calendar, day, cutOffDays) + (hour === 24 ? 1 : 0)) * DAY_MS);
  return DateTime.fromObject(
    { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate(), hour: hour === 24 ? 0 : hour, minute },
    { zone: calendar.timeZone },
  ).toJSDate();
}

/** `n` business days after (or, negative, before) `day`. */
function addBusinessDays(calendar: CalendarRules, day: number, n: number): number {
  const step = n < 0 ? -1 : 1;
  let d = day;
  for (let left = Math.abs(n); left > 0;) {
    d += step;
    if (isBusinessDay(calendar, d)) left--;
  }
  return d;
}

/** `YYYY-MM-DD` of a moment in a zone. */
export function dateIn(moment: Date, timeZone: string): string {
  return DateTime.fromJSDate(moment, { zone: timeZone }).toISODate()!;
}

/** The moment `days` calendar days after `from`, counted in the zone (a DST change keeps the wall time). */
export function plusDays(from: Date, days: number, timeZone: string): Date {
  return DateTime.fromJSDate(from, { zone: timeZone }).plus({ days }).toJSDate();
}

/** True for an IANA zone name luxon (the runtime's ICU) knows. */
export function isKnownZone(zone: string): boolean {
  return DateTime.now().setZone(zone).isValid;
}
