import type { EntityManager } from '@mikro-orm/postgresql';
import { rawRows } from '../../persistence/raw-query';

/**
 * The register module's SQL (docs/architecture.md, "SQL"). No benchmark pays for any of it: each is
 * a report read kept as SQL for the reason its doc gives, its numbers read as text (exact decimals).
 */

/** A holder of a share class now, with its investor's and distributor's names. */
export interface HolderRow {
  investor_id: string;
  investor_name: string | null;
  distributor_id: string;
  distributor_name: string;
  balance: string;
}

/**
 * The class's holders with a balance, largest first. Kept as SQL: a join of three tables into plain
 * rows (no managed entity per holder), ordered by the holding's balance.
 */
export function holdersOf(em: EntityManager, shareClassId: string): Promise<HolderRow[]> {
  return rawRows<HolderRow>(
    em,
    `select h.investor_id, coalesce(i.name, i.email) as investor_name, i.distributor_id, d.name as distributor_name, h.balance::text
       from holding h join investor i on i.id = h.investor_id join distributor d on d.id = i.distributor_id
       where h.share_class_id = ? and h.balance <> 0 order by h.balance desc, h.investor_id`,
    [shareClassId],
  );
}

/** A balance in one share class. */
export interface ClassBalanceRow {
  share_class_id: string;
  balance: string;
}

/** An investor's non-zero holdings now. Kept as SQL: plain rows, the balance as exact text. */
export function holdingsOfInvestor(em: EntityManager, investorId: string): Promise<ClassBalanceRow[]> {
  return rawRows<ClassBalanceRow>(em, 'select share_class_id, balance::text from holding where investor_id = ? and balance <> 0 order by share_class_id', [
    investorId,
  ]);
}

/** A holder's balance at a past instant, with its distributor. */
export interface BalanceAtRow {
  investor_id: string;
  distributor_id: string;
  balance: string;
}

/**
 * Each holder's balance just before `closesAt`: its last movement then. Kept as SQL: `distinct on`,
 * the latest row per investor, which the ORM cannot say.
 */
export function balancesAt(em: EntityManager, shareClassId: string, closesAt: Date): Promise<BalanceAtRow[]> {
  return rawRows<BalanceAtRow>(
    em,
    `select m.investor_id, i.distributor_id, m.balance::text from (
         select distinct on (investor_id) investor_id, balance from holding_movement where share_class_id = ? and at < ? order by investor_id, at desc, id desc) m
       join investor i on i.id = m.investor_id where m.balance <> 0 order by m.investor_id`,
    [shareClassId, closesAt],
  );
}

/** A wallet of an investor on a chain. */
export interface InvestorWalletRow {
  investor_id: string;
  address: string;
}

/** The investors' wallets on the chain, lower-cased. Kept as SQL: `lower(address)` read for the chain's balance calls. */
export function walletsOnChain(em: EntityManager, chainId: string, investorIds: string[]): Promise<InvestorWalletRow[]> {
  return rawRows<InvestorWalletRow>(
    em,
    'select investor_id, lower(address) as address from investor_wallet where chain_id = ? and investor_id = any(?::text[]) order by investor_id, id',
    [chainId, investorIds],
  );
}

/** A lot as it arrived. */
export interface LotArrivalRow {
  investor_id: string;
  quantity: string;
  settled_at: Date;
  created_at: Date;
}

/** The holders' lots created before `closesAt`. Kept as SQL: a replay's plain rows, not the lots' current entities. */
export function lotsBefore(em: EntityManager, shareClassId: string, closesAt: Date, investorIds: string[]): Promise<LotArrivalRow[]> {
  return rawRows<LotArrivalRow>(
    em,
    'select investor_id, quantity::text, settled_at, created_at from holding_lot where share_class_id = ? and created_at < ? and investor_id = any(?::text[])',
    [shareClassId, closesAt, investorIds],
  );
}

/** A movement out of a holding. */
export interface DepartureRow {
  investor_id: string;
  change: string;
  at: Date;
}

/** The holders' movements out before `closesAt`. Kept as SQL: a replay's plain rows of the movement history. */
export function departuresBefore(em: EntityManager, shareClassId: string, closesAt: Date, investorIds: string[]): Promise<DepartureRow[]> {
  return rawRows<DepartureRow>(
    em,
    'select investor_id, change::text, at from holding_movement where share_class_id = ? and at < ? and change < 0 and investor_id = any(?::text[])',
    [shareClassId, closesAt, investorIds],
  );
}

/** Whether the investor exists. Kept as SQL: an existence check that loads no entity into the statement's context. */
export async function investorExists(em: EntityManager, investorId: string): Promise<boolean> {
  const [row] = await rawRows<{ id: string }>(em, 'select id from investor where id = ?', [investorId]);
  return row !== undefined;
}

/**
 * The investor's balance in each class just before `end`: its last movement then. Kept as SQL:
 * `distinct on`, the latest row per class.
 */
export function investorBalancesBefore(em: EntityManager, investorId: string, end: Date): Promise<ClassBalanceRow[]> {
  return rawRows<ClassBalanceRow>(
    em,
    `select distinct on (share_class_id) share_class_id, balance::text from holding_movement where investor_id = ? and at < ? order by share_class_id, at desc, id desc`,
    [investorId, end],
  );
}

/** A movement of an investor's holding. */
export interface StatementMovementRow {
  at: Date;
  share_class_id: string;
  order_id: string | null;
  transfer_hash: string | null;
  source: string;
  change: string;
  balance: string;
}

/** The investor's movements in [start, end). Kept as SQL: plain rows of the movement history, numbers as exact text. */
export function movementsBetween(em: EntityManager, investorId: string, start: Date, end: Date): Promise<StatementMovementRow[]> {
  return rawRows<StatementMovementRow>(
    em,
    `select at, share_class_id, order_id, transfer_hash, source, change::text, balance::text from holding_movement where investor_id = ? and at >= ? and at < ? order by at, id`,
    [investorId, start, end],
  );
}

/** An order placed in a statement's period. */
export interface StatementOrderRow {
  id: string;
  created_at: Date;
  share_class_id: string;
  type: string;
  status: string;
  amount: string | null;
  currency: string | null;
  tokens: string | null;
}

/**
 * The investor's orders placed in [start, end). Kept as SQL: `coalesce(settlement_tokens,
 * token_count)`, plain rows, not managed orders.
 */
export function ordersPlacedBetween(em: EntityManager, investorId: string, start: Date, end: Date): Promise<StatementOrderRow[]> {
  return rawRows<StatementOrderRow>(
    em,
    `select id, created_at, share_class_id, type, status, amount::text, currency, coalesce(settlement_tokens, token_count)::text as tokens from "order" where investor_id = ? and created_at >= ? and created_at < ? order by created_at, id`,
    [investorId, start, end],
  );
}
