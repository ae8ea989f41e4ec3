import type { EntityManager } from '@mikro-orm/postgresql';
import { nextIdSql } from '../../common/ids';
import { rawRows } from '../../persistence/raw-query';
import type { DeliveryMode } from '../distributor';
import { WALLET_IN_USE_SQL } from '../investor';

/**
 * A placement's statements (docs/architecture.md, "Hot paths"): what it asks of the parties, and
 * the order it writes. Paid by: `npm run bench` (docs/benchmarks.md, "Latest figures": POST
 * /orders/subscribe, both flows, and POST /orders/redeem).
 */

export interface PartyRow {
  investor_id: string | null;
  investor_status: string | null;
  delivery_mode: DeliveryMode | null;
  investor_granted: boolean;
  investor_wallet: string | null;
  distributor_wallet: string | null;
}

/*
 * Everything a placement asks of the database, in one statement, from the database rather than
 * the read cache, so a grant or wallet change that committed is never missed: the distributor, its
 * investor and that investor's status, the distributor's grant of the share class (the grant rule
 * of DistributorService.grantsOf: a share_class_grant row, with its delivery mode), the investor's
 * grant, and both wallets on the share class's default chain.
 */
const PARTIES_SQL = `select i.id as investor_id, i.status as investor_status, g.delivery_mode,
    exists (select 1 from investor_grant ig where ig.investor_id = i.id and ig.share_class_id = ?) as investor_granted,
    (select w.address from investor_wallet w where w.investor_id = i.id and w.chain_id = ? and ${WALLET_IN_USE_SQL('w')} limit 1) as investor_wallet,
    (select dw.address from distributor_wallet dw where dw.distributor_id = d.id and dw.chain_id = ? limit 1) as distributor_wallet
  from distributor d
  left join investor i on i.id = ? and i.distributor_id = d.id
  left join share_class_grant g on g.distributor_id = d.id and g.share_class_id = ?
  where d.id = ?`;

/**
 * The distributor's row of a placement (none when it does not exist), with its investor, grant and
 * wallets on `chainId`. Paid by: `npm run bench` (the placements, whose checks the baseline also
 * makes in one statement).
 */
export async function placementPartyRow(
  em: EntityManager,
  ids: { distributorId: string; investorId: string | null; shareClassId: string; chainId: string | null },
): Promise<PartyRow | null> {
  const [row] = await rawRows<PartyRow>(em, PARTIES_SQL, [ids.shareClassId, ids.chainId, ids.chainId, ids.investorId, ids.shareClassId, ids.distributorId]);
  return row ?? null;
}

/** A placement to write: the order's columns, its first history entry and its event. */
export interface PlacementRow {
  /** The order's id, or null for the next `OR` id of its sequence. */
  id: string | null;
  /** The order's columns (the ORM's metadata names them) and their values. */
  columns: { column: string; value: unknown }[];
  entry: { at: Date; status: string; by: string; byPrincipal: string; note: string | null };
  event: { eventId: string; type: string; aggregateType: string; distributorId: string | null | undefined; payload: string; occurredAt: Date };
}

/**
 * The order, its first history entry and its event, in one statement; answers the order's id and
 * the entry's. Paid by: `npm run bench` (the placements) and docs/benchmarks.md, "Measured costs
 * behind code choices" (order-transition.ts `recordPlacement`: the unit of work's change sets
 * cost ~20 times the SQL).
 */
export async function insertPlacement(em: EntityManager, p: PlacementRow): Promise<{ id: string; entry_id: string | number }> {
  // One placeholder per column written, not per list element: a text per set of columns, a handful.
  // eslint-disable-next-line no-restricted-syntax
  const values = p.columns.map(() => '?').join(', ');
  const [written] = await rawRows<{ id: string; entry_id: string | number }>(
    em,
    `with o as (insert into "order" ("id", ${p.columns.map((c) => `"${c.column}"`).join(', ')})
                values (${p.id === null ? nextIdSql('OR') : '?'}, ${values}) returning "id"),
          h as (insert into "order_status_entry" ("order_id", "at", "status", "by", "by_principal", "note") select o.id, ?, ?, ?, ?, ? from o returning "id"),
          e as (insert into "event" ("event_id", "type", "aggregate_type", "aggregate_id", "distributor_id", "payload", "occurred_at")
                select ?, ?, ?, o.id, ?, jsonb_build_object('orderId', o.id) || ?::jsonb, ? from o)
     select o.id, h.id as entry_id from o, h`,
    [
      ...(p.id === null ? [] : [p.id]),
      ...p.columns.map((c) => c.value),
      p.entry.at,
      p.entry.status,
      p.entry.by,
      p.entry.byPrincipal,
      p.entry.note,
      p.event.eventId,
      p.event.type,
      p.event.aggregateType,
      p.event.distributorId ?? null,
      p.event.payload,
      p.event.occurredAt,
    ],
  );
  return written;
}
