import DataLoader from 'dataloader';
import type { EntityClass, FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Per-request batch loaders: every relation a page of results asks for is fetched with one
 * `where … in (…)` query per relation, whatever the page size (no N+1).
 */
export class Loaders {
  private readonly loaders = new Map<string, DataLoader<string, unknown>>();

  constructor(private readonly em: EntityManager) {}

  /** Loads entities by primary key; missing ones resolve to null. */
  byId<T extends object>(entity: EntityClass<T>, pk = 'id'): DataLoader<string, T | null> {
    return this.memo(`id:${entity.name}:${pk}`, async (ids) => {
      const rows = await this.em.find(entity, { [pk]: { $in: [...ids] } } as FilterQuery<T>);
      const byKey = new Map(rows.map((r) => [String((r as Record<string, unknown>)[pk]), r]));
      return ids.map((id) => byKey.get(id) ?? null);
    });
  }

  /** Loads the rows whose foreign key `fk` is each given id (a one-to-many, batched). */
  manyBy<T extends object>(entity: EntityClass<T>, fk: string, orderBy: Record<string, 'asc' | 'desc'> = {}): DataLoader<string, T[]> {
    return this.memo(`many:${entity.name}:${fk}`, async (ids) => {
      const rows = await this.em.find(entity, { [fk]: { $in: [...ids] } } as FilterQuery<T>, { orderBy } as never);
      const groups = new Map<string, T[]>(ids.map((id) => [id, []]));
      for (const row of rows) {
        const ref = (row as Record<string, unknown>)[fk] as { id?: string } | string;
        const key = typeof ref === 'string' ? ref : String(ref?.id);
        groups.get(key)?.push(row);
      }
      return ids.map((id) => groups.get(id) ?? []);
    });
  }

  private memo<V>(key: string, batch: (ids: readonly string[]) => Promise<V[]>): DataLoader<string, V> {
    let loader = this.loaders.get(key) as DataLoader<string, V> | undefined;
    if (!loader) {
      loader = new DataLoader<string, V>(batch, { maxBatchSize: 1000 });
      this.loaders.set(key, loader as DataLoader<string, unknown>);
    }
    return loader;
  }
}
