import type { EntityClass, FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ClassType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { badRequest } from '../common/errors';

export const MAX_PAGE = 1000;
export const DEFAULT_PAGE = 100;

@InputType()
export class PageInput {
  @Field(() => Int, { nullable: true, description: `Items per page, 1 to ${MAX_PAGE} (default ${DEFAULT_PAGE})` })
  first?: number;

  @Field(() => String, { nullable: true, description: '`nextCursor` of the previous page' })
  after?: string;
}

/** A page of `T`s, newest first, and the cursor of the next page (null on the last). */
export function PageOf<T extends object>(item: ClassType<T>, name: string) {
  @ObjectType(name)
  abstract class Page {
    @Field(() => [item])
    items: T[];

    @Field(() => String, { nullable: true })
    nextCursor: string | null;
  }
  return Page;
}

interface Keyed {
  id: string;
  createdAt: Date;
}

function decodeCursor(cursor: string): { t: number; id: string } {
  try {
    const [t, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [number, string];
    if (typeof t === 'number' && typeof id === 'string') return { t, id };
  } catch {
    /* fall through */
  }
  throw badRequest('invalid cursor');
}

export function encodeCursor(row: Keyed): string {
  return Buffer.from(JSON.stringify([row.createdAt.getTime(), row.id])).toString('base64url');
}

export function pageSize(first: number | undefined | null, max = MAX_PAGE, fallback = DEFAULT_PAGE): number {
  if (first === undefined || first === null) return fallback;
  if (!Number.isInteger(first) || first < 1 || first > max) throw badRequest(`limit must be an integer from 1 to ${max}`);
  return first;
}

/** The key the next page starts after (`invalid cursor` when unreadable); none for the first page. */
export function cursorKey(after: string | null | undefined): { at: Date; id: string } | null {
  if (!after) return null;
  const c = decodeCursor(after);
  return { at: new Date(c.t), id: c.id };
}

/** `where` narrowed to the rows after the cursor, in (createdAt desc, id desc) order. */
export function afterCursor<T>(where: FilterQuery<T>, after: string | null | undefined): FilterQuery<T> {
  const key = cursorKey(after);
  if (!key) return where;
  return { $and: [where, { $or: [{ createdAt: { $lt: key.at } }, { createdAt: key.at, id: { $lt: key.id } }] }] } as FilterQuery<T>;
}

/** The same keyset condition in SQL, for reads that write their own statement (`?` placeholders). */
export function afterCursorSql(key: { at: Date; id: string }, alias: string): { sql: string; params: unknown[] } {
  return { sql: `(${alias}.created_at < ? or (${alias}.created_at = ? and ${alias}.id < ?))`, params: [key.at, key.at, key.id] };
}

/** The page of `limit` out of `limit + 1` rows read, and the cursor of the next page. */
export function pageOf<T extends Keyed>(rows: T[], limit: number): { items: T[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  return { items, nextCursor: rows.length > limit ? encodeCursor(items[items.length - 1]) : null };
}

/**
 * Keyset pagination on (createdAt desc, id desc): stable under concurrent inserts and as fast on
 * the thousandth page as on the first, given an index that ends in (created_at, id).
 */
export async function paginate<T extends Keyed>(
  em: EntityManager,
  entity: EntityClass<T>,
  where: FilterQuery<T>,
  page: { first?: number | null; after?: string | null },
  max = MAX_PAGE,
): Promise<{ items: T[]; nextCursor: string | null }> {
  const limit = pageSize(page.first, max, Math.min(DEFAULT_PAGE, max));
  const rows = await em.find(entity, afterCursor(where, page.after), {
    // `as never`: MikroORM types `orderBy` by T's own keys, which a type parameter hides although `Keyed` has both.
    orderBy: { createdAt: 'desc', id: 'desc' } as never,
    limit: limit + 1,
  });
  return pageOf(rows, limit);
}
