import type { EntityManager } from '@mikro-orm/postgresql';
import { rawRows } from '../../persistence/raw-query';
import type { NavCompensation } from './nav-compensation.entity';

/** The correction module's SQL (docs/architecture.md, "SQL"): the plan's reads, the repricing and the compensations. */

/** An order priced at the corrected NAV, as the plan reads it (decimals as exact text). */
export interface OrderRow {
  id: string;
  flow: string;
  type: string;
  status: string;
  distributor_id: string;
  investor_id: string;
  event_seq: number;
  amount: string | null;
  token_count: string | null;
  fees_red_bps: number | null;
  currency: string | null;
  chain_id: string | null;
  delivery_wallet: string | null;
  nav: string | null;
  amount_tokens_estimated: string | null;
  settlement_tokens: string | null;
  settlement_amount: string | null;
}

/** Statuses of an order priced at a NAV and not yet settled (both flows' `created`, `submitted`, `accepted`). */
const UNSETTLED = ['created', 'submitted', 'accepted'];

/**
 * The orders priced at the NAV: unsettled, or settled one-step ones; `lock`: in the approver's
 * transaction, locked until it commits, so what is booked is what was compared. Kept as SQL: the
 * `for update` lock. Paid by: npm run bench:nav-correction (docs/benchmarks.md, "NAV correction over 1,000 settled orders"): 1,000 orders as plain rows, not managed entities.
 */
export function ordersAtNav(em: EntityManager, shareClassId: string, publishedAt: Date, lock: boolean): Promise<OrderRow[]> {
  return rawRows<OrderRow>(
    em,
    `select id, flow, type, status, distributor_id, investor_id, event_seq, amount::text, token_count::text, fees_red_bps, currency, chain_id,
            delivery_wallet, nav::text, amount_tokens_estimated::text, settlement_tokens::text, settlement_amount::text
       from "order" where share_class_id = ? and nav_published_at = ? and (status = any(?::text[]) or (status = 'settled' and flow = 'one_step'))
      order by id${lock ? ' for update' : ''}`,
    [shareClassId, publishedAt, UNSETTLED],
  );
}

/** What an investor holds free of its open one-step redemptions. */
export interface FreeHoldingRow {
  investor_id: string;
  free: string;
}

/** Each investor's tokens of the class free of open one-step redemptions. Kept as SQL: an aggregate (the open redemptions' sum) per holding. */
export function freeHoldings(em: EntityManager, shareClassId: string, investorIds: string[]): Promise<FreeHoldingRow[]> {
  return rawRows<FreeHoldingRow>(
    em,
    `select h.investor_id, (h.balance - coalesce((select sum(o.token_count) from "order" o where o.investor_id = h.investor_id and o.share_class_id = h.share_class_id
        and o.flow = 'one_step' and o.type = 'redemption' and o.status in ('pending', 'accepted')), 0))::text as free
       from holding h where h.share_class_id = ? and h.investor_id = any(?::text[])`,
    [shareClassId, investorIds],
  );
}

/**
 * The compensation rows (`rows`: their columns by name), all in one statement. Paid by: npm run bench:nav-correction (docs/benchmarks.md, "NAV correction over 1,000 settled orders"): one insert
 * for the batch, not a change set per order.
 */
export async function insertCompensations(em: EntityManager, now: Date, rows: Record<string, unknown>[]): Promise<void> {
  await rawRows(
    em,
    `insert into nav_compensation (request_id, nav_id, order_id, investor_id, distributor_id, share_class_id, action, tokens, units, cash_amount, currency,
        chain_id, wallet, token_address, status, transaction_id, created_at)
     select (r->>'request_id')::bigint, (r->>'nav_id')::bigint, r->>'order_id', r->>'investor_id', r->>'distributor_id', r->>'share_class_id', r->>'action',
        (r->>'tokens')::numeric, r->>'units', (r->>'cash_amount')::numeric, r->>'currency', r->>'chain_id', r->>'wallet', r->>'token_address', r->>'status',
        (r->>'transaction_id')::bigint, ?
       from jsonb_array_elements(?::jsonb) r`,
    [now, JSON.stringify(rows)],
  );
}

/** A compensation row of a batch, as its outcome books it. */
export type CompensationRow = Pick<NavCompensation, 'id' | 'requestId' | 'orderId' | 'investorId' | 'shareClassId' | 'distributorId' | 'action' | 'tokens'>;

/**
 * A batch's rows still in `status`, locked. Kept as SQL: the `for update` lock (an outcome is booked
 * once). Paid by: npm run bench:nav-correction (docs/benchmarks.md, "NAV correction over 1,000 settled orders"): plain rows, not a managed entity per order.
 */
export function compensationsOfBatch(em: EntityManager, transactionId: string, status: string): Promise<CompensationRow[]> {
  return rawRows<CompensationRow>(
    em,
    `select id::text, request_id::text as "requestId", order_id as "orderId", investor_id as "investorId", share_class_id as "shareClassId",
            distributor_id as "distributorId", action, tokens::text
       from nav_compensation where transaction_id = ? and status = ? order by investor_id, id for update`,
    [transactionId, status],
  );
}

/** The batch's rows decided: `status`, the hash, the failure, when booked. Paid by: npm run bench:nav-correction (docs/benchmarks.md, "NAV correction over 1,000 settled orders"): one update for the batch. */
export async function decideCompensations(
  em: EntityManager,
  ids: string[],
  decision: { status: string; hash: string | null; failure: string | null; bookedAt: Date | null },
): Promise<void> {
  await rawRows(em, `update nav_compensation set status = ?, transfer_hash = ?, failure = ?, booked_at = ? where id = any(?::bigint[])`, [
    decision.status,
    decision.hash,
    decision.failure,
    decision.bookedAt,
    ids,
  ]);
}

/**
 * The unsettled orders at the corrected close (`rows`: each order's id and new figures). Kept as
 * SQL: one set-based update from a jsonb array (jsonb operators), not a change set per order.
 */
export async function repriceOrderRows(
  em: EntityManager,
  rows: Record<string, unknown>[],
  now: Date,
  actor: string | null,
  principal: string | null,
): Promise<void> {
  await rawRows(
    em,
    `update "order" o set nav = (r->>'nav')::numeric,
       amount_tokens_estimated = case when r->'amountTokensEstimated' is not null then (r->>'amountTokensEstimated')::numeric else o.amount_tokens_estimated end,
       settlement_nav = coalesce((r->>'settlementNav')::numeric, o.settlement_nav), settlement_tokens = coalesce((r->>'settlementTokens')::numeric, o.settlement_tokens),
       settlement_amount = coalesce((r->>'settlementAmount')::numeric, o.settlement_amount), amount_fees_total = coalesce((r->>'amountFeesTotal')::numeric, o.amount_fees_total),
       updated_at = ?, updated_by = ?, updated_by_principal = ?
     from jsonb_array_elements(?::jsonb) r where o.id = r->>'id'`,
    [now, actor, principal, JSON.stringify(rows)],
  );
}

/**
 * A history entry in each order's status (no move), at least a millisecond after its last, as
 * every entry is. Kept as SQL: the aggregate (`max` of the order's entries) per row, set-based.
 */
export async function insertRepricedEntries(
  em: EntityManager,
  notes: { id: string; note: string }[],
  now: Date,
  actor: string | null,
  principal: string | null,
): Promise<void> {
  await rawRows(
    em,
    `insert into order_status_entry (order_id, "at", status, "by", by_principal, note)
     select o.id, greatest(?::timestamptz, (select max(e."at") from order_status_entry e where e.order_id = o.id) + interval '1 millisecond'), o.status, ?, ?, r->>'note'
       from jsonb_array_elements(?::jsonb) r join "order" o on o.id = r->>'id'`,
    [now, actor, principal, JSON.stringify(notes)],
  );
}
