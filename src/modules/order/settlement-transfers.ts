import type { EntityManager } from '@mikro-orm/postgresql';
import { conflict } from '../../common/errors';
import { rawRows } from '../../persistence/raw-query';

/**
 * The transfer that settles an order: its chain, hash and the log index of its `Transfer` event
 * (the candidates that match the order, first free one taken: a batch transaction carries one
 * log per row). `logIndexes` null: the chain was not read, and the hash alone names the transfer.
 */
export interface SettlementTransfer {
  chainId: string;
  hash: string;
  logIndexes: number[] | null;
}

/** Where the chain was not read: the whole transaction is the transfer. */
const WHOLE_TX = -1;

export const transferAlreadySettled = (hash: string, orderId: string) => conflict(`transferHash ${hash} already settled order ${orderId}`);

/**
 * One transfer settles one order: records that `transfer` settled `orderId`, in the caller's
 * transaction. The primary key of `settlement_transfer` (chain, hash, log index) holds it in the
 * database: of two concurrent requests the second waits for the first's commit, finds the row and
 * answers 409 naming the order it settled. The same order claiming its own transfer again is a no-op.
 */
export async function claimTransfer(em: EntityManager, orderId: string, transfer: SettlementTransfer): Promise<void> {
  const hash = transfer.hash.toLowerCase();
  // The hash alone (chain not read) and a log of it are the same transfer: never both.
  const other = await rawRows<{ order_id: string; log_index: number }>(
    em,
    `select order_id, log_index from settlement_transfer where chain_id = ? and transfer_hash = ? and order_id <> ? and (log_index = ${WHOLE_TX} or ?::boolean) order by log_index limit 1`,
    [transfer.chainId, hash, orderId, transfer.logIndexes === null],
  );
  if (other[0]) throw transferAlreadySettled(transfer.hash, other[0].order_id);
  const candidates = transfer.logIndexes ?? [WHOLE_TX];
  let taken: string | null = null;
  for (const logIndex of candidates) {
    const [row] = await rawRows<{ order_id: string }>(
      em,
      `insert into settlement_transfer (chain_id, transfer_hash, log_index, order_id) values (?, ?, ?, ?)
         on conflict (chain_id, transfer_hash, log_index) do update set order_id = settlement_transfer.order_id returning order_id`,
      [transfer.chainId, hash, logIndex, orderId],
    );
    if (row.order_id === orderId) return;
    taken ??= row.order_id;
  }
  throw transferAlreadySettled(transfer.hash, taken!);
}

/**
 * The gateway's own transactions (one order's mint or burn, a batch's rows) at their depth: each
 * settled order's log recorded, so a hash ops give later cannot settle another order with it.
 */
export async function recordTransfers(em: EntityManager, rows: { orderId: string; chainId: string; hash: string; logIndex: number }[]): Promise<void> {
  if (!rows.length) return;
  await rawRows(
    em,
    `insert into settlement_transfer (chain_id, transfer_hash, log_index, order_id)
       select r->>'chainId', lower(r->>'hash'), (r->>'logIndex')::int, r->>'orderId' from jsonb_array_elements(?::jsonb) r
       on conflict do nothing`,
    [JSON.stringify(rows)],
  );
}
