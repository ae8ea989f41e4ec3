import type { EntityManager } from '@mikro-orm/postgresql';
import { rawRows } from '../../persistence/raw-query';

/** The dealing module's SQL (docs/architecture.md, "SQL"). */

/**
 * The share class's dealing week as stored now. Kept as SQL, no benchmark pays for it (the rules
 * it feeds are cached): the ORM would answer with the identity map's copy of the share class, and a
 * copy read before a change must not put the old week in the cache after the change.
 */
export async function storedDealingWeekdays(em: EntityManager, shareClassId: string): Promise<number[] | undefined> {
  const [week] = await rawRows<{ dealing_weekdays: number[] }>(em, 'select dealing_weekdays from share_class where id = ?', [shareClassId]);
  return week?.dealing_weekdays;
}
