import type { EntityManager } from '@mikro-orm/postgresql';
import { rawRows } from '../../persistence/raw-query';

/** The settlement module's SQL (docs/architecture.md, "SQL"): a dealing date's prices and NAV, an order's parties, the lots to freeze. */

/** An order's prices at its dealing date's NAV, as `priceDealingDate` computed them. */
export interface OrderPriceRow {
  id: string;
  settlementTokens?: string | null;
  settlementAmount?: string | null;
  amountFeesTotal?: string | null;
  settlementNav?: string | null;
  nav?: string | null;
  navPublishedAt?: Date | null;
}

/**
 * The prices of a dealing date's orders, one statement for the date. Paid by: `npm run
 * bench:settlement` (docs/benchmarks.md, "Settlement on chain": "the mutation writes the date's
 * prices with one statement instead of the unit of work's change sets for 1,000 orders").
 */
export async function writeOrderPrices(em: EntityManager, rows: OrderPriceRow[], updated: { at: Date; by: string; principal: string }): Promise<void> {
  await rawRows(
    em,
    `update "order" o set settlement_tokens = (r->>'settlementTokens')::numeric, settlement_amount = (r->>'settlementAmount')::numeric,
       amount_fees_total = coalesce((r->>'amountFeesTotal')::numeric, o.amount_fees_total), settlement_nav = (r->>'settlementNav')::numeric,
       nav = (r->>'nav')::numeric, nav_published_at = (r->>'navPublishedAt')::timestamptz, updated_at = ?, updated_by = ?, updated_by_principal = ?
     from jsonb_array_elements(?::jsonb) r where o.id = r->>'id'`,
    [updated.at, updated.by, updated.principal, JSON.stringify(rows)],
  );
}

/**
 * The id of the last NAV published on a date of the calendar's zone, at or before `now`. Kept as
 * SQL: the date is the instant's in the zone (`at time zone`), which PostgreSQL computes and the
 * ORM's filters cannot say.
 */
export async function navIdOfDate(em: EntityManager, shareClassId: string, timeZone: string, date: string, now: Date): Promise<string | null> {
  const [row] = await rawRows<{ id: string }>(
    em,
    `select id::text from nav where share_class_id = ? and (published_at at time zone ?)::date = ?::date and published_at <= ?
     order by published_at desc limit 1`,
    [shareClassId, timeZone, date, now],
  );
  return row?.id ?? null;
}

/**
 * Each order's principals: of its placement and of every entry of its history. Kept as SQL: an
 * aggregate (`array_agg`) of the orders' histories in one statement; a dealing date checks its
 * 1,000 orders with it (`npm run bench:settlement`).
 */
export async function orderPrincipals(em: EntityManager, orderIds: readonly string[]): Promise<{ id: string; parties: (string | null)[] }[]> {
  return rawRows<{ id: string; parties: (string | null)[] }>(
    em,
    `select o.id, array_agg(e.by_principal) || o.created_by_principal as parties
       from "order" o left join order_status_entry e on e.order_id = o.id
      where o.id = any(?::text[])
      group by o.id`,
    [orderIds],
  );
}

/** A lot an order minted, still holding tokens and not frozen, at the order's delivery wallet. */
export interface UnfrozenLotRow {
  lot_id: string;
  remaining: string;
  settled_at: Date;
  wallet: string;
  share_class_id: string;
}

/**
 * The lots the orders minted that hold tokens and have no freeze, in id order. Kept as SQL: the
 * lots were just written by the holding ledger's statements (`settleMany`), beside the unit of
 * work, so they are read from the database, not the identity map; one statement joins each to its
 * order's wallet and its freeze.
 */
export async function unfrozenLotsOf(em: EntityManager, orderIds: readonly string[]): Promise<UnfrozenLotRow[]> {
  return rawRows<UnfrozenLotRow>(
    em,
    `select l.id::text as lot_id, l.remaining::text as remaining, l.settled_at, lower(o.delivery_wallet) as wallet, l.share_class_id
       from holding_lot l join "order" o on o.id = l.order_id
      where l.order_id = any(?::text[]) and l.remaining > 0
        and not exists (select 1 from lot_freeze f where f.lot_id = l.id)
      order by l.id`,
    [orderIds],
  );
}
