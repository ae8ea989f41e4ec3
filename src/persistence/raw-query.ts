import type { EntityManager, Knex } from '@mikro-orm/postgresql';

/**
 * One SQL statement with bound parameters, straight through the ORM's knex (in the caller's
 * transaction when there is one), returning plain rows. For hot reads that map their own rows:
 * `em.execute` costs more CPU per statement (docs/benchmarks.md, "Measured costs behind code
 * choices").
 */
export async function rawRows<T = Record<string, unknown>>(em: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  const knex = em.getTransactionContext<ReturnType<EntityManager['getKnex']>>() ?? em.getKnex();
  const result: unknown = await knex.raw(sql, params as Knex.RawBinding[]);
  return (result as { rows: T[] }).rows;
}
