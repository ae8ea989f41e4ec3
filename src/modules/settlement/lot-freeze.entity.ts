import { Entity, Enum, Index, PrimaryKey, Property } from '@mikro-orm/core';
import { bigintColumn } from '../../persistence/bigint-column';

/**
 * freezing → frozen → unfreezing → released; `failed` when the freeze itself reverted (the lot's
 * tokens are then free on chain, and ops are told by the log). Each step is written in the
 * transaction that queues its intent, so it is queued once.
 */
export enum LotFreezeStatus {
  freezing = 'freezing',
  frozen = 'frozen',
  unfreezing = 'unfreezing',
  released = 'released',
  failed = 'failed',
}

/**
 * A lot's tokens held on chain while it is in lock-up (`freezePartialTokens` on the wallet the
 * lot was minted to), and released when it leaves lock-up. Kept beside the lot, not in it: the
 * holding ledger owns holding tables, the chain module owns what it asked the chain to do.
 */
@Entity({ tableName: 'lot_freeze' })
@Index({ properties: ['status', 'unlocksAt'] })
@Index({ properties: ['chainId', 'tokenAddress', 'wallet'] })
export class LotFreeze {
  @PrimaryKey({ type: bigintColumn() })
  lotId: string;

  @Property({ type: 'text' })
  chainId: string;

  @Property({ type: 'text' })
  tokenAddress: string;

  @Property({ type: 'text' })
  wallet: string;

  /** Token units frozen for the lot (the token's decimals). */
  @Property({ type: 'text' })
  units: string;

  /** Units the release asked to unfreeze (fewer when a burn or a forced transfer already released some). */
  @Property({ type: 'text', nullable: true })
  releasedUnits?: string;

  @Property({ type: 'datetime', length: 3 })
  unlocksAt: Date;

  @Enum({ items: () => LotFreezeStatus })
  status: LotFreezeStatus;

  @Property({ type: bigintColumn(), nullable: true, index: true })
  freezeTxId?: string;

  @Property({ type: bigintColumn(), nullable: true, index: true })
  unfreezeTxId?: string;

  @Property({ type: 'text', nullable: true })
  error?: string;

  @Property({ type: 'datetime', length: 3 })
  updatedAt: Date;
}
