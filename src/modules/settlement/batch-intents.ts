import type { EntityManager } from '@mikro-orm/postgresql';
import { encodeFunctionData, type Hex } from 'viem';
import { logger } from '../../common/logger';
import { ChainBatchOrder } from './chain-batch.entity';
import { type ChainService, type ChainTransaction, TOKEN_ABI } from '../chain';

/** A row of a batch call: the order it settles, its wallet, its amount in token units. */
export interface BatchRow {
  orderId: string;
  wallet: string;
  units: bigint;
}

export type BatchPurpose = 'settlement.batchMint' | 'settlement.batchBurn';
export const isBatchPurpose = (purpose: string): purpose is BatchPurpose => purpose === 'settlement.batchMint' || purpose === 'settlement.batchBurn';

/** The batch call of `rows`, in their order. */
export function batchCall(purpose: BatchPurpose, rows: BatchRow[]): Hex {
  return encodeFunctionData({
    abi: TOKEN_ABI,
    functionName: purpose === 'settlement.batchMint' ? 'batchMint' : 'batchBurn',
    args: [rows.map((r) => r.wallet as Hex), rows.map((r) => r.units)],
  });
}

/**
 * A batch intent and its rows (`chain_batch_order`: an order in one batch at a time), in the
 * caller's transaction: the intent exists with its rows or not at all.
 */
export async function enqueueBatch(
  em: EntityManager,
  chain: ChainService,
  b: { chainId: string; tokenAddress: string; purpose: BatchPurpose; rows: BatchRow[] },
): Promise<ChainTransaction> {
  const intent = await enqueue(em, chain, b);
  for (const r of b.rows) em.create(ChainBatchOrder, { orderId: r.orderId, transactionId: String(intent.id), units: String(r.units) });
  return intent;
}

/**
 * A batch that reverted (at the sender's call before signing, or in its receipt) goes again as
 * two halves: T-REX's batch calls revert whole on one bad row, so halving until that row is
 * alone settles every other row and fails only it (its own failure names the contract's
 * reason). The rows move to the halves' intents in the transaction that declares the batch's
 * outcome, so each order is in exactly one live intent, and settles once.
 */
export async function splitBatch(
  em: EntityManager,
  chain: ChainService,
  failed: ChainTransaction,
  rows: BatchRow[],
  reason: string,
): Promise<ChainTransaction[]> {
  if (!isBatchPurpose(failed.purpose)) throw new Error(`chain transaction ${failed.id} is not a batch (${failed.purpose})`);
  const purpose = failed.purpose;
  const token = failed.toAddress;
  if (!token) throw new Error(`chain transaction ${failed.id} has no token address`);
  const half = Math.ceil(rows.length / 2);
  const halves = [rows.slice(0, half), rows.slice(half)];
  const intents: ChainTransaction[] = [];
  for (const part of halves) {
    const intent = await enqueue(em, chain, { chainId: failed.chainId, tokenAddress: token, purpose, rows: part });
    await em.nativeUpdate(ChainBatchOrder, { orderId: { $in: part.map((r) => r.orderId) } }, { transactionId: String(intent.id) });
    intents.push(intent);
  }
  logger.info(
    { chainId: failed.chainId, intent: failed.id, rows: rows.length, reason, halves: intents.map((i) => String(i.id)) },
    'a batch reverted: its rows go again in two halves',
  );
  return intents;
}

async function enqueue(
  em: EntityManager,
  chain: ChainService,
  b: { chainId: string; tokenAddress: string; purpose: BatchPurpose; rows: BatchRow[] },
): Promise<ChainTransaction> {
  const intent = chain.enqueue(em, { chainId: b.chainId, purpose: b.purpose, to: b.tokenAddress, data: batchCall(b.purpose, b.rows) });
  // The id is the rows' key: the intent is written first.
  await em.flush();
  return intent;
}
