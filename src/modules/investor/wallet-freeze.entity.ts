import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { Audited } from '../../persistence/audited.entity';
import { EpochMs } from '../../common/scalars';
import { bigintColumn } from '../../persistence/bigint-column';
import { InvestorWallet } from './investor.entity';

/** The intents of a freeze (`setAddressFrozen(wallet, true)`) and of its approved unfreeze (`false`). */
export const FREEZE_PURPOSE = 'wallet.freeze';
export const UNFREEZE_PURPOSE = 'wallet.thaw';

/**
 * freezing (its intent queued) → frozen (confirmed) | failed (the chain refused it: the gateway
 * still refuses, fail closed); frozen or failed → unfreezing (an approved request queued the
 * unfreeze) → lifted, or back to frozen when the chain refused the unfreeze.
 */
export enum WalletFreezeStatus {
  freezing = 'freezing',
  frozen = 'frozen',
  failed = 'failed',
  unfreezing = 'unfreezing',
  lifted = 'lifted',
}
registerEnumType(WalletFreezeStatus, { name: 'WalletFreezeStatus' });

/**
 * An investor's wallet frozen on one share class's token (T-REX `setAddressFrozen`) by an operator,
 * with the reason (wallet-freeze.ts). Until it is `lifted` the gateway refuses the wallet's
 * redemptions and transfers of that class (`walletFrozenRefusal`); at most one such row per wallet
 * and class (a partial unique index).
 */
@ObjectType('WalletFreeze', { description: "A wallet frozen on a share class's token, until an approved unfreeze lifts it" })
@Entity({ tableName: 'wallet_freeze' })
@Index({ properties: ['investorId', 'shareClassId'] })
@Index({
  name: 'wallet_freeze_held_unique',
  expression: 'create unique index "wallet_freeze_held_unique" on "wallet_freeze" ("wallet_id", "share_class_id") where "status" <> \'lifted\'',
})
export class WalletFreeze extends Audited {
  @Field(() => ID)
  @PrimaryKey({ type: bigintColumn(), autoincrement: true })
  id: Opt<string>;

  @ManyToOne(() => InvestorWallet, { deleteRule: 'cascade' })
  wallet: InvestorWallet;

  @Field(() => String, { description: '`IN######`' })
  @Property({ type: 'text' })
  investorId: string;

  @Field(() => String)
  @Property({ type: 'text' })
  shareClassId: string;

  @Field(() => String)
  @Property({ type: 'text' })
  chainId: string;

  @Field(() => String, { description: 'The token contract (lower case)' })
  @Property({ type: 'text' })
  tokenAddress: string;

  @Field(() => String, { description: 'The wallet address (lower case)' })
  @Property({ type: 'text' })
  walletAddress: string;

  @Field(() => WalletFreezeStatus)
  @Enum({ items: () => WalletFreezeStatus })
  status: WalletFreezeStatus;

  @Field(() => String, { description: 'Why it was frozen' })
  @Property({ type: 'text' })
  reason: string;

  @Field(() => String, { description: 'The principal that froze it' })
  @Property({ type: 'text' })
  frozenBy: string;

  @Field(() => EpochMs)
  @Property({ type: 'datetime', length: 3 })
  frozenAt: Date;

  /** The `setAddressFrozen(wallet, true)` intent. */
  @Property({ type: bigintColumn() })
  freezeTransactionId: string;

  /** The approval request that lifts it, once approved. */
  @Field(() => String, { nullable: true })
  @Property({ type: bigintColumn(), nullable: true })
  unfreezeRequestId?: string;

  /** The `setAddressFrozen(wallet, false)` intent. */
  @Property({ type: bigintColumn(), nullable: true })
  unfreezeTransactionId?: string;

  @Field(() => EpochMs, { nullable: true })
  @Property({ type: 'datetime', length: 3, nullable: true })
  liftedAt?: Date;

  @Field(() => String, { nullable: true, description: "The chain's reason when the last freeze or unfreeze failed" })
  @Property({ type: 'text', nullable: true })
  error?: string;
}
