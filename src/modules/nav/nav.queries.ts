import type { EntityManager } from '@mikro-orm/postgresql';
import { rawRows } from '../../persistence/raw-query';

/** The NAV module's SQL (docs/architecture.md, "SQL"). */

/** Every column of a `nav` row, as rowRecord (persistence/read-record.ts) maps it from the entity's metadata. */
export type NavRow = Record<string, unknown>;

/**
 * When the next NAV after `after` is published, or null. Kept as SQL, no benchmark pays for it
 * (the live NAV is cached; this runs on a miss): an aggregate (`min`), one value, no entity.
 */
export async function nextNavPublishedAt(em: EntityManager, shareClassId: string, after: Date): Promise<Date | null> {
  const [next] = await rawRows<{ at: Date | null }>(em, 'select min(published_at) as at from "nav" where share_class_id = ? and published_at > ?', [
    shareClassId,
    after,
  ]);
  return next?.at ? new Date(next.at) : null;
}

/**
 * NAVs of a share class published in [start, min(end, now)], ascending, as plain rows.
 * Paid by: `npm run bench` (docs/benchmarks.md, "Latest figures": nav/history, one-day range):
 * hydrating and tracking the entities cost more than the SQL.
 */
export function navRowsInRange(em: EntityManager, shareClassId: string, start: Date, end: Date, now: Date): Promise<NavRow[]> {
  return rawRows<NavRow>(
    em,
    'select * from "nav" where share_class_id = ? and published_at >= ? and published_at <= least(?::timestamptz, ?::timestamptz) order by published_at asc',
    [shareClassId, start, end, now],
  );
}

/**
 * The last `size` NAVs of a share class published at or before `now`, newest first, as plain rows.
 * Paid by: `npm run bench` (docs/benchmarks.md, "Latest figures": nav/history, last 100).
 */
export function latestNavRows(em: EntityManager, shareClassId: string, now: Date, size: number): Promise<NavRow[]> {
  return rawRows<NavRow>(em, 'select * from "nav" where share_class_id = ? and published_at <= ? order by published_at desc limit ?', [
    shareClassId,
    now,
    size,
  ]);
}
