import type { EntityManager } from '@mikro-orm/postgresql';
import { logger } from '../../common/logger';
import { rawRows } from '../../persistence/raw-query';
import type { LotPiece, Register } from './register-port';
import { holderById, holdingOf } from './chain-holders';
import { ChainMovement, ChainMovementKind } from './chain-movement.entity';
import type { ChainHandle } from './chains';

/*
 * Reorgs for the chain follower (follower.ts): where the chain it followed forked, and the
 * register's movements after that point undone, newest first, as if they never happened.
 */

/**
 * Null when the cursor's block is still canonical; else the newest kept block that still is
 * (every block after it is re-read), or one before the oldest kept when none is.
 */
export async function forkPoint(em: EntityManager, chain: ChainHandle, cursor: bigint): Promise<bigint | null> {
  const kept = await rawRows<{ block_number: string; block_hash: string }>(
    em,
    // Ordered by the number, not by its text (an output column of the same name would win).
    'select b.block_number::text as block_number, b.block_hash from chain_followed_block b where b.chain_id = ? and b.block_number <= ? order by b.block_number desc',
    [chain.id, String(cursor)],
  );
  if (!kept.length) return null;
  let forked = false;
  for (const b of kept) {
    const now = await chain.client.getBlock({ blockNumber: BigInt(b.block_number) }).catch(() => null);
    if (now && now.hash.toLowerCase() === b.block_hash) return forked ? BigInt(b.block_number) : null;
    forked = true;
  }
  return BigInt(kept[kept.length - 1].block_number) - 1n;
}

/** Undoes, newest first, what the movements after `block` did to the register (their blocks left the chain). */
export async function undoAfter(em: EntityManager, ledger: Register, chainId: string, block: bigint, now: Date): Promise<void> {
  const gone = await em.find(
    ChainMovement,
    { chainId, blockNumber: { $gt: String(block) }, undoneAt: null },
    { orderBy: { blockNumber: 'desc', logIndex: 'desc' } },
  );
  for (const m of gone) {
    logger.warn({ chainId, block: m.blockNumber, tx: m.transactionHash }, 'reorg: a followed transfer left the chain; its effect on the register is undone');
    const [from, to] = [await holderById(ledger, em, m.fromInvestorId), await holderById(ledger, em, m.toInvestorId)];
    const moves = m.kind === ChainMovementKind.transfer || m.kind === ChainMovementKind.unknown_holder;
    const payload = { chainId, reorg: true, undoes: m.transactionHash };
    if (moves && to)
      await ledger.chainMove(em, {
        ...holdingOf(to, m.shareClassId),
        change: `-${m.tokens}`,
        at: now,
        transferHash: m.transactionHash,
        reason: `reorg: transfer ${m.transactionHash} undone`,
        payload,
      });
    if (moves && from) {
      await ledger.chainMove(em, {
        ...holdingOf(from, m.shareClassId),
        change: m.tokens,
        at: now,
        transferHash: m.transactionHash,
        reason: `reorg: transfer ${m.transactionHash} undone`,
        lots: lotsBack(m),
        payload,
      });
    }
    m.undoneAt = now;
  }
  await rawRows(em, 'delete from chain_followed_block where chain_id = ? and block_number > ?', [chainId, String(block)]);
  await em.flush();
}

/** The sender's lots as the movement took them (the ledger settles what they do not cover at the undo). */
function lotsBack(m: ChainMovement): LotPiece[] {
  return (m.lotsTaken ?? []).map((l) => ({ quantity: l.quantity, settledAt: new Date(l.settledAt) }));
}
