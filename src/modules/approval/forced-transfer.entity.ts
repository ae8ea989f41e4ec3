import { Entity, Enum, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { bigintColumn } from '../../persistence/bigint-column';

/** sending (its intent queued) → done (the register moved with it) | failed (the chain refused it). */
export enum ForcedTransferStatus {
  sending = 'sending',
  done = 'done',
  failed = 'failed',
}

/**
 * A forced transfer (court order, estate) an approved request started: whose tokens go to whom,
 * the intent that carries it (T-REX `forcedTransfer`), and how it ended.
 */
@Entity({ tableName: 'forced_transfer' })
export class ForcedTransfer {
  @PrimaryKey({ type: bigintColumn(), autoincrement: true })
  id: Opt<string>;

  @Property({ type: bigintColumn(), unique: true })
  approvalRequestId: string;

  @Property({ type: 'text' })
  shareClassId: string;

  @Property({ type: 'text' })
  chainId: string;

  @Property({ type: 'text' })
  tokenAddress: string;

  @Property({ type: 'text' })
  fromInvestorId: string;

  @Property({ type: 'text' })
  fromWallet: string;

  @Property({ type: 'text' })
  toInvestorId: string;

  @Property({ type: 'text' })
  toWallet: string;

  /** Tokens (decimal string), as the register counts them. */
  @Property({ type: 'text' })
  quantity: string;

  @Property({ type: bigintColumn(), unique: true })
  transactionId: string;

  @Enum({ items: () => ForcedTransferStatus })
  status: ForcedTransferStatus;

  @Property({ type: 'text', nullable: true })
  hash?: string;

  @Property({ type: 'text', nullable: true })
  error?: string;

  @Property({ type: 'datetime', length: 3 })
  createdAt: Date;

  @Property({ type: 'datetime', length: 3, nullable: true })
  decidedAt?: Date;
}
