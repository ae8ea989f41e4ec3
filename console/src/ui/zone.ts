/*
 * Wall-clock times in a named time zone (a share class's dealing zone), without a library: the
 * browser's Intl knows every IANA zone, and an instant's offset there is what its wall clock reads
 * minus the instant.
 */

/** The offset of `zone` at the instant `ms`, in milliseconds (east of UTC positive). */
function offsetAt(ms: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(ms));
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second')) - Math.floor(ms / 1000) * 1000;
}

/** The instant at which the wall clock of `zone` reads `date` (YYYY-MM-DD) `time` (HH:MM); null when either is malformed. */
export function instantIn(date: string, time: string, zone: string): number | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!d || !t) return null;
  const wall = Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]), Number(t[1]), Number(t[2]));
  // Twice: the first guess's offset may be the other side of a daylight-saving change.
  const first = wall - offsetAt(wall, zone);
  return wall - offsetAt(first, zone);
}

/** Today's date (YYYY-MM-DD) on the wall clock of `zone`. */
export function todayIn(zone: string, now = Date.now()): string {
  return new Date(now + offsetAt(now, zone)).toISOString().slice(0, 10);
}
