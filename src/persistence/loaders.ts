import DataLoader from 'dataloader';
import { ReferenceKind, type EntityClass, type FilterQuery, type QueryOrderMap } from '@mikro-orm/core';
import type { EntityManager, QBFilterQuery } from '@mikro-orm/postgresql';
import { rowRecord, type EntityRecord } from './read-record';

/**
 * Per-request batch loaders: every relation a page of results asks for is fetched with one
 * `where … in (…)` query per relation, whatever the page size (no N+1).
 *
 * What they load is only ever handed to GraphQL (field resolvers, the visibility guard), so
 * entities without embedded parts come back as read-only records of their class (`rowRecord`,
 * relations as `{ id }`) from the rows of one statement, not as managed entities: hydrating and
 * tracking a page's investors and their grants cost more CPU than the rest of the page.
 */
export class Loaders {
  private readonly loaders = new Map<string, DataLoader<string, unknown>>();

  constructor(private readonly em: EntityManager) {}

  /** Loads entities by primary key; missing ones resolve to null. */
  byId<T extends object>(entity: EntityClass<T>, pk = 'id'): DataLoader<string, EntityRecord<T> | null> {
    return this.memo(`id:${entity.name}:${pk}`, async (ids) => {
      const rows = await this.find(entity, { [pk]: { $in: [...ids] } } as FilterQuery<T>);
      const byKey = new Map(rows.map((r) => [String((r as Record<string, unknown>)[pk]), r]));
      return ids.map((id) => byKey.get(id) ?? null);
    });
  }

  /** Loads the rows whose foreign key `fk` is each given id (a one-to-many, batched). */
  manyBy<T extends object>(entity: EntityClass<T>, fk: string, orderBy: Record<string, 'asc' | 'desc'> = {}): DataLoader<string, EntityRecord<T>[]> {
    return this.memo(`many:${entity.name}:${fk}`, async (ids) => {
      const rows = await this.find(entity, { [fk]: { $in: [...ids] } } as FilterQuery<T>, orderBy);
      const groups = new Map<string, EntityRecord<T>[]>(ids.map((id) => [id, []]));
      for (const row of rows) {
        const ref = (row as Record<string, unknown>)[fk] as { id?: string } | string;
        const key = typeof ref === 'string' ? ref : String(ref?.id);
        groups.get(key)?.push(row);
      }
      return ids.map((id) => groups.get(id) ?? []);
    });
  }

  private async find<T extends object>(
    entity: EntityClass<T>,
    where: FilterQuery<T>,
    orderBy: Record<string, 'asc' | 'desc'> = {},
  ): Promise<EntityRecord<T>[]> {
    const meta = this.em.getMetadata().get<T>(entity.name);
    // Embedded parts are assembled by hydration only: such entities stay managed.
    if (meta.props.some((p) => p.kind === ReferenceKind.EMBEDDED)) {
      // A managed entity has every field a record of it has (for a concrete class the compiler
      // checks it; for a type parameter it cannot).
      return (await this.em.find(entity, where, { orderBy: orderBy as QueryOrderMap<T> })) as unknown as EntityRecord<T>[];
    }
    const rows = await this.em
      .createQueryBuilder(entity)
      .select('*')
      .where(where as QBFilterQuery<T>)
      .orderBy(orderBy)
      .execute('all', false);
    return rows.map((row) => rowRecord(this.em, entity as abstract new (...args: never[]) => T, row as Record<string, unknown>));
  }

  private memo<V>(key: string, batch: (ids: readonly string[]) => Promise<V[]>): DataLoader<string, V> {
    let loader = this.loaders.get(key) as DataLoader<string, V> | undefined;
    if (!loader) {
      loader = new DataLoader<string, V>(batch, { maxBatchSize: 1000 });
      this.loaders.set(key, loader);
    }
    return loader;
  }
}
