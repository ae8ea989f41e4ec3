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
  /** Non-business days besides Saturdays and Sundays, `YYYY-MM-DD`. */
  holidays: ReadonlySet<string>;
  /** First dealing day of an every-N-business-days cycle (`YYYY-MM-DD`). */
  anchorDate: string;
}

/** A share class with no calendar configured: every weekday in UTC, the cut-off at the end of the day. */
export const DEFAULT_CALENDAR: CalendarRules = Object.freeze({
  timeZone: 'UTC',
  cutOffTime: '24:00',
  settlementLagDays: 1,
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
  const zone = calendar.timeZone;
  const placed = DateTime.fromJSDate(placedAt, { zone });
  // Start early enough that a cut-off after the dealing day (cutOffDays > 0) is not missed.
  let day = placed.startOf('day').minus({ days: Math.max(0, cutOffDays) * 2 + 7 });
  const n = Math.max(1, frequency);
  for (let i = 0; i < 3_700; i++, day = day.plus({ days: 1 })) {
    if (!isDealingDay(calendar, day, n)) continue;
    const cutOffAt = cutOffOf(calendar, day, cutOffDays);
    if (placedAt.getTime() < cutOffAt.getTime()) {
      return { dealingDate: isoDate(day), cutOffAt, expectedSettlementDate: isoDate(addBusinessDays(calendar, day, calendar.settlementLagDays)) };
    }
  }
  throw new Error(`no dealing day within ten years of ${placed.toISO()}`);
}

/** Saturday and Sunday (in the calendar's zone) and the calendar's holidays are not business days. */
export function isBusinessDay(calendar: CalendarRules, day: DateTime): boolean {
  return day.weekday <= 5 && !calendar.holidays.has(isoDate(day));
}

function isDealingDay(calendar: CalendarRules, day: DateTime, every: number): boolean {
  if (!isBusinessDay(calendar, day)) return false;
  if (every === 1) return true;
  return businessDaysSinceAnchor(calendar, day) % every === 0;
}

/**
 * Business days from the anchor date up to (not including) `day`, negative before it: weekdays
 * by arithmetic, less the holidays in between, so it costs the same whatever the distance.
 */
function businessDaysSinceAnchor(calendar: CalendarRules, day: DateTime): number {
  const anchor = DateTime.fromISO(calendar.anchorDate, { zone: day.zone });
  const [from, to, sign] = anchor <= day ? [anchor, day, 1] : [day, anchor, -1];
  const fromIso = isoDate(from);
  const toIso = isoDate(to);
  let count = weekdaysBetween(from, to);
  for (const h of calendar.holidays) {
    if (h >= fromIso && h < toIso && DateTime.fromISO(h).weekday <= 5) count--;
  }
  return sign * count;
}

/** Weekdays in [from, to), whole calendar days. */
function weekdaysBetween(from: DateTime, to: DateTime): number {
  const days = Math.round(to.startOf('day').diff(from.startOf('day'), 'days').days);
  const weeks = Math.floor(days / 7);
  let count = weeks * 5;
  let d = from.plus({ days: weeks * 7 });
  for (let i = 0; i < days % 7; i++, d = d.plus({ days: 1 })) if (d.weekday <= 5) count++;
  return count;
}

/** The cut-off instant of dealing day `day`: the cut-off time on the business day `cutOffDays` away. */
function cutOffOf(calendar: CalendarRules, day: DateTime, cutOffDays: number): Date {
  const cutOffDay = addBusinessDays(calendar, day, cutOffDays);
  const [hour, minute] = calendar.cutOffTime.split(':').map(Number);
  // `24:00` is the start of the next calendar day; a time skipped by a DST change moves forward (luxon).
  return cutOffDay.startOf('day').plus({ days: hour === 24 ? 1 : 0 }).set(hour === 24 ? {} : { hour, minute }).toJSDate();
}

/** `n` business days after (or, negative, before) `day`. */
export function addBusinessDays(calendar: CalendarRules, day: DateTime, n: number): DateTime {
  const step = n < 0 ? -1 : 1;
  let d = day;
  for (let left = Math.abs(n); left > 0; ) {
    d = d.plus({ days: step });
    if (isBusinessDay(calendar, d)) left--;
  }
  return d;
}

/** `YYYY-MM-DD` of a moment in a zone. */
export function dateIn(moment: Date, timeZone: string): string {
  return isoDate(DateTime.fromJSDate(moment, { zone: timeZone }));
}

/** The moment `days` calendar days after `from`, counted in the zone (a DST change keeps the wall time). */
export function plusDays(from: Date, days: number, timeZone: string): Date {
  return DateTime.fromJSDate(from, { zone: timeZone }).plus({ days }).toJSDate();
}

const isoDate = (d: DateTime) => d.toFormat('yyyy-MM-dd');

/** True for an IANA zone name luxon (the runtime's ICU) knows. */
export function isKnownZone(zone: string): boolean {
  return DateTime.now().setZone(zone).isValid;
}
