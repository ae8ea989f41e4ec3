import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * One SQL statement with bound parameters, straight through the ORM's knex (in the caller's
 * transaction when there is one), returning plain rows. For hot reads that map their own rows:
 * `em.execute` costs ~40–90 µs more CPU per statement than this (measured in-process: the order
 * read 124 vs 83 µs, `select 1` 131 vs 40 µs).
 */
export async function rawRows<T = Record<string, unknown>>(em: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  const knex = (em.getTransactionContext() as ReturnType<EntityManager['getKnex']> | undefined) ?? em.getKnex();
  const result = await knex.raw(sql, params as never[]);
  return (result as { rows: T[] }).rows;
}
