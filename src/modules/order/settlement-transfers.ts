import type { EntityManager } from '@mikro-orm/postgresql';
import { conflict } from '../../common/errors';
import { claimTransferLog, insertSettledTransfers, otherTransferClaim, WHOLE_TX } from './order.queries';

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
  const other = await otherTransferClaim(em, transfer.chainId, hash, orderId, transfer.logIndexes === null);
  if (other !== null) throw transferAlreadySettled(transfer.hash, other);
  const candidates = transfer.logIndexes ?? [WHOLE_TX];
  let taken: string | null = null;
  for (const logIndex of candidates) {
    const holder = await claimTransferLog(em, transfer.chainId, hash, logIndex, orderId);
    if (holder === orderId) return;
    taken ??= holder;
  }
  throw transferAlreadySettled(transfer.hash, taken!);
}

/**
 * The gateway's own transactions (one order's mint or burn, a batch's rows) at their depth: each
 * settled order's log recorded, so a hash ops give later cannot settle another order with it.
 */
export async function recordTransfers(em: EntityManager, rows: { orderId: string; chainId: string; hash: string; logIndex: number }[]): Promise<void> {
  if (!rows.length) return;
  await insertSettledTransfers(em, rows);
}
