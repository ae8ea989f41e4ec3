/**
 * The baseline's dealing dates, computed as cheaply as the rule allows for the calendars the
 * bench seeds: UTC, dealing every business day (`subFreq`/`redFreq` 0 or 1), the cut-off on the
 * dealing day itself (`cutOffTime_days` 0), weekends and the calendar's holidays off. The answer
 * is kept per (calendar, UTC day) until the cut-off passes, as the gateway keeps its last answer.
 * Any other calendar is refused (500) rather than answered differently from the gateway.
 */
const DAY_MS = 86_400_000;

export interface BaselineCalendar {
  timeZone: string;
  cutOffTime: string;
  settlementLagDays: number;
  holidays: string[];
}

export interface BaselineDates {
  dealingDate: string;
  cutOffAt: Date;
  expectedSettlementDate: string;
}

/** A share class with no calendar row (DEFAULT_CALENDAR of src/modules/dealing). */
export const DEFAULT_BASELINE_CALENDAR: BaselineCalendar = { timeZone: 'UTC', cutOffTime: '24:00', settlementLagDays: 1, holidays: [] };

const isoDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
const businessDay = (day: number, holidays: string[]) => {
  const weekday = (day + 4) % 7; // day 0 (1970-01-01) was a Thursday; 0 = Sunday
  return weekday !== 0 && weekday !== 6 && !holidays.includes(isoDay(day));
};

const last = new Map<string, { from: number; until: number; dates: BaselineDates }>();

export function baselineDates(cal: BaselineCalendar, frequency: number, cutOffDays: number, placedAt: Date): BaselineDates {
  if (cal.timeZone !== 'UTC' || frequency > 1 || cutOffDays !== 0) throw new Error('baseline: only UTC, daily, same-day cut-off calendars are modelled');
  const key = `${cal.cutOffTime}|${cal.settlementLagDays}|${cal.holidays.join(',')}`;
  const t = placedAt.getTime();
  const hit = last.get(key);
  if (hit && t >= hit.from && t < hit.until) return { ...hit.dates, cutOffAt: new Date(hit.dates.cutOffAt) };
  const [h, m] = cal.cutOffTime.split(':').map(Number);
  const cutOffMs = (h * 60 + m) * 60_000;
  let day = Math.floor(t / DAY_MS);
  while (!businessDay(day, cal.holidays) || t >= day * DAY_MS + cutOffMs) day++;
  let settle = day;
  for (let lag = cal.settlementLagDays; lag > 0;) if (businessDay(++settle, cal.holidays)) lag--;
  const dates = { dealingDate: isoDay(day), cutOffAt: new Date(day * DAY_MS + cutOffMs), expectedSettlementDate: isoDay(settle) };
  last.set(key, { from: t, until: dates.cutOffAt.getTime(), dates });
  return { ...dates, cutOffAt: new Date(dates.cutOffAt) };
}
