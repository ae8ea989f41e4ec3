import type { EntityManager } from '@mikro-orm/postgresql';
import { rawRows } from '../../persistence/raw-query';
import type { HoldingKey } from '../holding';
import { OrderFlow, OrderType } from './order.entity';
import { RESERVING_STATUSES } from './order-states';

/** The order module's SQL (docs/architecture.md, "SQL"): the holding ledger's order book, the claims of settlement transfers and of a push, the moves of many orders at once. */

const inList = (statuses: readonly string[]) => statuses.map((s) => `'${s}'`).join(', ');

/**
 * The open redemptions of a holding: what its one-step redemptions in a reserving status promised.
 * The condition is the partial index `order_open_redemption_index`'s (order.entity.ts); the plan
 * test (test/performance/hot-query-plans.test.ts) fails if the two part.
 */
export const OPEN_REDEMPTION_CONDITION = `flow = '${OrderFlow.one_step}' and type = '${OrderType.redemption}' and status in (${inList(RESERVING_STATUSES)})`;

const RESERVED_SQL = `select coalesce(sum(token_count), 0)::text as tokens from "order" where investor_id = ? and share_class_id = ? and ${OPEN_REDEMPTION_CONDITION}`;

/**
 * Accepted one-step subscriptions not yet settled, at the tokens they were priced at on acceptance
 * (`settlement_tokens`): that is what will be minted. An accepted order without a price yet (a
 * dealing date not yet struck) counts for nothing rather than at a guessed NAV: a distributor
 * reading `pendingIn` as a promise must not be shown tokens whose price nobody has set.
 */
const EXPECTED_SQL = `select coalesce(sum(settlement_tokens), 0)::text as tokens from "order"
  where investor_id = ? and share_class_id = ? and status = 'accepted' and flow = '${OrderFlow.one_step}' and type = '${OrderType.subscription}'`;

/** The tokens the holding's open one-step redemptions reserve. Kept as SQL: an aggregate (`sum`), on the partial index's condition. */
export const reservedTokens = (em: EntityManager, key: HoldingKey): Promise<string> => sumOf(em, RESERVED_SQL, key);

/** The tokens the holding's accepted one-step subscriptions will mint. Kept as SQL: an aggregate (`sum`). */
export const expectedTokens = (em: EntityManager, key: HoldingKey): Promise<string> => sumOf(em, EXPECTED_SQL, key);

async function sumOf(em: EntityManager, sql: string, key: HoldingKey): Promise<string> {
  const [row] = await rawRows<{ tokens: string }>(em, sql, [key.investorId, key.shareClassId]);
  return row?.tokens ?? '0';
}

/** Where the chain was not read: the whole transaction is the transfer (settlement-transfers.ts). */
export const WHOLE_TX = -1;

/**
 * Another order's claim on the transfer: the hash alone (`wholeOnly` false: any log of it) or a log
 * of a hash claimed whole. Kept as SQL: read in the claim's transaction, beside the insert below.
 */
export async function otherTransferClaim(em: EntityManager, chainId: string, hash: string, orderId: string, anyLog: boolean): Promise<string | null> {
  const other = await rawRows<{ order_id: string; log_index: number }>(
    em,
    `select order_id, log_index from settlement_transfer where chain_id = ? and transfer_hash = ? and order_id <> ? and (log_index = ${WHOLE_TX} or ?::boolean) order by log_index limit 1`,
    [chainId, hash, orderId, anyLog],
  );
  return other[0]?.order_id ?? null;
}

/**
 * Claims a transfer's log for the order; answers the order that holds it (this one, or the one
 * that claimed it first). Kept as SQL: `on conflict` on the primary key decides the race.
 */
export async function claimTransferLog(em: EntityManager, chainId: string, hash: string, logIndex: number, orderId: string): Promise<string> {
  const [row] = await rawRows<{ order_id: string }>(
    em,
    `insert into settlement_transfer (chain_id, transfer_hash, log_index, order_id) values (?, ?, ?, ?)
       on conflict (chain_id, transfer_hash, log_index) do update set order_id = settlement_transfer.order_id returning order_id`,
    [chainId, hash, logIndex, orderId],
  );
  return row.order_id;
}

/** The gateway's own settled transfers recorded, one statement for the batch. Kept as SQL: `on conflict do nothing` (a log recorded already stays its order's). */
export async function insertSettledTransfers(em: EntityManager, rows: { orderId: string; chainId: string; hash: string; logIndex: number }[]): Promise<void> {
  await rawRows(
    em,
    `insert into settlement_transfer (chain_id, transfer_hash, log_index, order_id)
       select r->>'chainId', lower(r->>'hash'), (r->>'logIndex')::int, r->>'orderId' from jsonb_array_elements(?::jsonb) r
       on conflict do nothing`,
    [JSON.stringify(rows)],
  );
}

/** A push claim as the order row holds it. */
export interface PushClaimRow {
  status: string;
  push_claim: string | null;
  push_claimed_at: Date | string | null;
}

/** The order's status and push claim as committed. Kept as SQL: a read that must not be the identity map's copy. */
export async function pushClaimState(em: EntityManager, orderId: string): Promise<PushClaimRow> {
  const [r] = await em.execute<PushClaimRow[]>('select "status", "push_claim", "push_claimed_at" from "order" where "id" = ?', [orderId]);
  return r;
}

/** An order's move among many (order-transition.ts `recordTransitions`), as its statements write it. */
export interface MovedOrderRow {
  id: string;
  status: string;
  seq: number;
  transfer_hash: string | null;
  failure_reason: string | null;
  /** The history entry's instant (ISO). */
  at: string;
  /** The order's `updated_at` (ISO). */
  updated_at: string;
  by: string;
  note: string | null;
}

/**
 * Each order's latest history instant. Paid by: `npm run bench:settlement` (docs/benchmarks.md,
 * "Settlement on chain": a batch's outcome reads and writes its orders in a few statements).
 */
export async function lastHistoryInstants(em: EntityManager, orderIds: string[]): Promise<{ order_id: string; at: Date }[]> {
  return rawRows<{ order_id: string; at: Date }>(
    em,
    'select order_id, max("at") as "at" from order_status_entry where order_id = any(?::text[]) group by order_id',
    [orderIds],
  );
}

/** The orders moved, one statement for the batch. Paid by: `npm run bench:settlement` (as above). */
export async function updateMovedOrders(em: EntityManager, rows: MovedOrderRow[], updated: { by: string; principal: string }): Promise<void> {
  await rawRows(
    em,
    `update "order" o set status = r->>'status', event_seq = (r->>'seq')::int,
       transfer_hash = coalesce(r->>'transfer_hash', o.transfer_hash), failure_reason = coalesce(r->>'failure_reason', o.failure_reason),
       updated_at = (r->>'updated_at')::timestamptz, updated_by = ?, updated_by_principal = ?
     from jsonb_array_elements(?::jsonb) r where o.id = r->>'id'`,
    [updated.by, updated.principal, JSON.stringify(rows)],
  );
}

/** The moves' history entries, in the moves' order, one statement. Paid by: `npm run bench:settlement` (as above). */
export async function insertHistoryEntries(em: EntityManager, rows: MovedOrderRow[], principal: string): Promise<void> {
  await rawRows(
    em,
    `insert into order_status_entry (order_id, "at", status, "by", by_principal, note)
     select r->>'id', (r->>'at')::timestamptz, r->>'status', r->>'by', ?, r->>'note' from jsonb_array_elements(?::jsonb) with ordinality as e(r, n) order by e.n`,
    [principal, JSON.stringify(rows)],
  );
}
