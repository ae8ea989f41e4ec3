import type { EntityManager } from '@mikro-orm/postgresql';
import { dutyRefusal } from '../../access/duties';
import { currentPrincipal } from '../../common/request-scope';
import { orderPrincipals } from './settlement.queries';

/**
 * The duty of an order's mint or burn (src/access/duties.ts `orderSettlement`), checked where
 * its intent is enqueued: the principals of every step the order took (its placement, each
 * entry of its status history: acceptance included) and the settling principal now must be two
 * parties. The order's actor columns are the principals that authenticated, never a caller's
 * note. Answers the refusal of each order that one ops principal alone brought here.
 */
export async function orderDutyRefusals(em: EntityManager, orderIds: readonly string[]): Promise<Map<string, string>> {
  if (!orderIds.length) return new Map();
  const rows = await orderPrincipals(em, orderIds);
  const settler = currentPrincipal();
  const refusals = new Map<string, string>();
  for (const { id, parties } of rows) {
    const refusal = dutyRefusal('orderSettlement', [...parties, settler]);
    if (refusal) refusals.set(id, `${refusal} (order ${id})`);
  }
  return refusals;
}
