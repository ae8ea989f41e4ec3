import type { EntityManager } from '@mikro-orm/postgresql';
import { rawRows } from '../../persistence/raw-query';

/*
 * The holding ledger's SQL (docs/architecture.md, "SQL"): row locks and set-based writes, a few
 * statements whatever the number of moves, the rows of a batch bound as one jsonb parameter.
 * Paid by: `npm run bench:settlement` (docs/benchmarks.md, "Settlement on chain": a batch's
 * outcome in a few statements instead of a lock, a move and a flush per order),
 * `npm run bench:distribution` ("Distribution to 10,000 holders": `chainMoveMany`) and
 * `npm run bench:nav-correction` (the outcomes' register moves). The balances are written only
 * here, by SQL, so they are read here too: the identity map's copy of a holding may be stale.
 */

/** A holding's key (as holding-ledger.types.ts's HoldingKey, which imports the lots: not imported here, so no circle). */
export interface HoldingKey {
  investorId: string;
  shareClassId: string;
}

/** Who writes, for the audit columns (created_by, updated_by and their principals). */
export interface Writer {
  by: string;
  principal: string;
}

const keysJson = (keys: readonly HoldingKey[]): string => JSON.stringify(keys.map((k) => ({ i: k.investorId, s: k.shareClassId })));

/** Empty holdings where there are none yet, each created at its own instant. */
export async function insertEmptyHoldings(em: EntityManager, writer: Writer, keys: readonly (HoldingKey & { at: Date })[]): Promise<void> {
  await rawRows(
    em,
    `insert into holding (created_at, updated_at, created_by, updated_by, created_by_principal, updated_by_principal, investor_id, share_class_id, balance)
     select (k->>'at')::timestamptz, (k->>'at')::timestamptz, ?, ?, ?, ?, k->>'i', k->>'s', 0 from jsonb_array_elements(?::jsonb) k
     on conflict (investor_id, share_class_id) do nothing`,
    [
      writer.by,
      writer.by,
      writer.principal,
      writer.principal,
      JSON.stringify(keys.map((k) => ({ i: k.investorId, s: k.shareClassId, at: k.at.toISOString() }))),
    ],
  );
}

/** The holding's balance (text), its row locked `for update`; undefined when there is no row. */
export async function lockedHoldingBalance(em: EntityManager, key: HoldingKey): Promise<string | undefined> {
  const [row] = await rawRows<{ balance: string }>(em, 'select balance::text from holding where investor_id = ? and share_class_id = ? for update', [
    key.investorId,
    key.shareClassId,
  ]);
  return row?.balance;
}

export interface HeldRow {
  investor_id: string;
  share_class_id: string;
  balance: string;
}

/** The holdings of `keys` that exist, locked `for update` in key order (two batches never wait on each other crosswise). */
export function lockedHoldingBalances(em: EntityManager, keys: readonly HoldingKey[]): Promise<HeldRow[]> {
  return rawRows<HeldRow>(
    em,
    `select investor_id, share_class_id, balance::text from holding
     where (investor_id, share_class_id) in (select k->>'i', k->>'s' from jsonb_array_elements(?::jsonb) k)
     order by investor_id, share_class_id for update`,
    [keysJson(keys)],
  );
}

/** The holding's balance (text) read without a lock; undefined when there is no row. */
export async function holdingBalance(em: EntityManager, key: HoldingKey): Promise<string | undefined> {
  const [row] = await rawRows<{ balance: string }>(em, 'select balance::text from holding where investor_id = ? and share_class_id = ?', [
    key.investorId,
    key.shareClassId,
  ]);
  return row?.balance;
}

export interface OpenLotRow {
  id: string;
  investor_id: string;
  share_class_id: string;
  remaining: string;
  settled_at: Date;
}

/** The lots with tokens left of the holdings of `keys`, oldest settled first (by id at one instant). */
export function openLotRows(em: EntityManager, keys: readonly HoldingKey[]): Promise<OpenLotRow[]> {
  return rawRows<OpenLotRow>(
    em,
    `select id::text, investor_id, share_class_id, remaining::text, settled_at from holding_lot
     where (investor_id, share_class_id) in (select k->>'i', k->>'s' from jsonb_array_elements(?::jsonb) k) and remaining > 0
     order by settled_at, id`,
    [keysJson(keys)],
  );
}

/** A lot to write; decimals as text, instants as ISO strings. */
export interface NewLotRow {
  i: string;
  s: string;
  quantity: string;
  remaining: string;
  settled_at: string;
  source: string;
  order_id: string | null;
  reason: string | null;
  at: string;
  updated_at: string;
}

/** Writes the lots in the given order; their ids, what is left of them and when they settled, in the same order. */
export function insertLots(em: EntityManager, writer: Writer, lots: readonly NewLotRow[]): Promise<{ id: string; remaining: string; settled_at: Date }[]> {
  return rawRows<{ id: string; remaining: string; settled_at: Date }>(
    em,
    `insert into holding_lot (created_at, updated_at, created_by, updated_by, created_by_principal, updated_by_principal, investor_id, share_class_id, quantity, remaining, settled_at, source, order_id, reason)
     select (r->>'at')::timestamptz, (r->>'updated_at')::timestamptz, ?, ?, ?, ?, r->>'i', r->>'s', (r->>'quantity')::numeric, (r->>'remaining')::numeric, (r->>'settled_at')::timestamptz, r->>'source', r->>'order_id', r->>'reason'
     from jsonb_array_elements(?::jsonb) with ordinality as e(r, n) order by e.n
     returning id::text, remaining::text, settled_at`,
    [writer.by, writer.by, writer.principal, writer.principal, JSON.stringify(lots)],
  );
}

/** What is left of lots taken from, and when. */
export async function updateLotsRemaining(em: EntityManager, writer: Writer, lots: readonly { id: string; remaining: string; at: string }[]): Promise<void> {
  await rawRows(
    em,
    `update holding_lot l set remaining = (r->>'remaining')::numeric, updated_at = (r->>'at')::timestamptz, updated_by = ?, updated_by_principal = ?
     from jsonb_array_elements(?::jsonb) r where l.id = (r->>'id')::bigint`,
    [writer.by, writer.principal, JSON.stringify(lots)],
  );
}

/** The holdings' new balances (text), and when. */
export async function updateHoldingBalances(
  em: EntityManager,
  writer: Writer,
  rows: readonly { i: string; s: string; balance: string; at: string }[],
): Promise<void> {
  await rawRows(
    em,
    `update holding h set balance = (r->>'balance')::numeric, updated_at = (r->>'at')::timestamptz, updated_by = ?, updated_by_principal = ?
     from jsonb_array_elements(?::jsonb) r where h.investor_id = r->>'i' and h.share_class_id = r->>'s'`,
    [writer.by, writer.principal, JSON.stringify(rows)],
  );
}

/** A journal row (`holding_movement`); decimals as text, instants as ISO strings. */
export interface MovementRow {
  i: string;
  s: string;
  change: string;
  balance: string;
  source: string;
  order_id: string | null;
  transfer_hash: string | null;
  reason: string | null;
  at: string;
}

/** Appends journal rows in the given order. */
export async function insertMovements(em: EntityManager, writer: Writer, rows: readonly MovementRow[]): Promise<void> {
  await rawRows(
    em,
    `insert into holding_movement (created_at, updated_at, created_by, updated_by, created_by_principal, updated_by_principal, investor_id, share_class_id, change, balance, source, order_id, transfer_hash, reason, at)
     select (r->>'at')::timestamptz, (r->>'at')::timestamptz, ?, ?, ?, ?, r->>'i', r->>'s', (r->>'change')::numeric, (r->>'balance')::numeric, r->>'source', r->>'order_id', r->>'transfer_hash', r->>'reason', (r->>'at')::timestamptz
     from jsonb_array_elements(?::jsonb) with ordinality as e(r, n) order by e.n`,
    [writer.by, writer.by, writer.principal, writer.principal, JSON.stringify(rows)],
  );
}

/** The orders of `orderIds` the journal already holds a move of (a settlement booked once). */
export async function ordersWithMovements(em: EntityManager, orderIds: readonly string[]): Promise<Set<string>> {
  const rows = await rawRows<{ order_id: string }>(em, 'select order_id from holding_movement where order_id = any(?::text[])', [orderIds]);
  return new Set(rows.map((r) => r.order_id));
}
