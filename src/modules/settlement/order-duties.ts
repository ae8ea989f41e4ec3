import type { EntityManager } from '@mikro-orm/postgresql';
import { dutyRefusal } from '../../access/duties';
import { currentPrincipal } from '../../common/request-scope';
import { rawRows } from '../../persistence/raw-query';

/**
 * The duty of an order's mint or burn (src/access/duties.ts `orderSettlement`), checked where
 * its intent is enqueued: the principals of every step the order took (its placement, each
 * entry of its status history: acceptance included) and the settling principal now must be two
 * parties. The order's actor columns are the principals that authenticated, never a caller's
 * note. Answers the refusal of each order that one ops principal alone brought here.
 */
export async function orderDutyRefusals(em: EntityManager, orderIds: readonly string[]): Promise<Map<string, string>> {
  if (!orderIds.length) return new Map();
  const rows = await rawRows<{ id: string; parties: (string | null)[] }>(
    em,
    `select o.id, array_agg(e.by_principal) || o.created_by_principal as parties
       from "order" o left join order_status_entry e on e.order_id = o.id
      where o.id = any(?::text[])
      group by o.id`,
    [orderIds],
  );
  const settler = currentPrincipal();
  const refusals = new Map<string, string>();
  for (const { id, parties } of rows) {
    const refusal = dutyRefusal('orderSettlement', [...parties, settler]);
    if (refusal) refusals.set(id, `${refusal} (order ${id})`);
  }
  return refusals;
}
