import { Entity, Enum, Index, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { DecimalScalar, EpochMs } from '../../common/scalars';
import { bigintColumn } from '../../persistence/bigint-column';

/**
 * What a `Transfer` the gateway did not make means for the register (the chain follower,
 * follower.ts):
 * - `transfer`: between wallets of two investors the register knows: out of one holding, into the other;
 * - `own_wallets`: between two wallets of one investor: the register (per investor) does not change;
 * - `unknown_holder`: to (or from) a wallet the register does not know: the known side moves, the
 *   other is held against an unknown holder and raised to ops;
 * - `issuance`: a mint or burn the gateway did not send: the register does not follow it (only
 *   orders issue tokens); reconciliation lists it as the explanation of the difference.
 */
export enum ChainMovementKind {
  transfer = 'transfer',
  own_wallets = 'own_wallets',
  unknown_holder = 'unknown_holder',
  issuance = 'issuance',
}
registerEnumType(ChainMovementKind, { name: 'ChainMovementKind' });

/** One `Transfer` log of a token the gateway follows, made by someone else, and what the register did with it. */
@ObjectType('ChainMovement', { description: 'A token movement on chain the gateway did not make, seen by the chain follower at the confirmation depth.' })
@Entity({ tableName: 'chain_movement' })
@Index({ properties: ['shareClassId', 'blockNumber'] })
@Index({
  name: 'chain_movement_one_per_log',
  expression: `create unique index "chain_movement_one_per_log" on "chain_movement" ("chain_id", "block_hash", "log_index")`,
})
export class ChainMovement {
  @Field(() => ID)
  @PrimaryKey({ type: bigintColumn(), autoincrement: true })
  id: Opt<string>;

  @Field(() => String)
  @Property({ type: 'text' })
  chainId: string;

  @Field(() => String)
  @Property({ type: 'text' })
  tokenAddress: string;

  @Field(() => String)
  @Property({ type: 'text' })
  shareClassId: string;

  @Field(() => String)
  @Property({ type: bigintColumn() })
  blockNumber: string;

  @Property({ type: 'text' })
  blockHash: string;

  @Property({ type: 'integer' })
  logIndex: number;

  @Field(() => String)
  @Property({ type: 'text' })
  transactionHash: string;

  @Field(() => String)
  @Property({ type: 'text' })
  fromAddress: string;

  @Field(() => String)
  @Property({ type: 'text' })
  toAddress: string;

  @Field(() => DecimalScalar, { description: 'Tokens moved (the token units in its decimals)' })
  @Property({ type: 'decimal', precision: 38, scale: 18 })
  tokens: string;

  @Field(() => ChainMovementKind)
  @Enum({ items: () => ChainMovementKind })
  kind: ChainMovementKind;

  @Field(() => String, { nullable: true, description: 'The investor whose wallet sent (null: a mint, or a wallet the register does not know)' })
  @Property({ type: 'text', nullable: true })
  fromInvestorId?: string;

  @Field(() => String, { nullable: true, description: 'The investor whose wallet received (null: a burn, or a wallet the register does not know)' })
  @Property({ type: 'text', nullable: true })
  toInvestorId?: string;

  @Field(() => String, {
    nullable: true,
    description:
      "Between two holders: the rule of the share class's rule set the receiver breaks (it got through a rule the token does not hold, or one changed since)",
  })
  @Property({ type: 'text', nullable: true })
  ineligibility?: string;

  /** The lots the sender's holding gave up (put back as they were when the move is undone). */
  @Property({ type: 'json', nullable: true })
  lotsTaken?: { quantity: string; settledAt: string }[];

  @Field(() => EpochMs)
  @Property({ type: 'datetime', length: 3 })
  observedAt: Date;

  @Field(() => EpochMs, { nullable: true, description: 'Its block left the chain (a reorg): what it did to the register was undone' })
  @Property({ type: 'datetime', length: 3, nullable: true })
  undoneAt?: Date;
}

/** How far the chain follower has read a chain (the last block processed at the confirmation depth). */
@Entity({ tableName: 'chain_follow_cursor' })
export class ChainFollowCursor {
  @PrimaryKey({ type: 'text' })
  chainId: string;

  @Property({ type: bigintColumn() })
  blockNumber: string;

  @Property({ type: 'datetime', length: 3 })
  updatedAt: Date;
}

/** The hash of a block the follower processed (its cursor's, or one with a movement): a changed hash means a reorg. */
@Entity({ tableName: 'chain_followed_block' })
export class ChainFollowedBlock {
  @PrimaryKey({ type: 'text' })
  chainId: string;

  @PrimaryKey({ type: bigintColumn() })
  blockNumber: string;

  @Property({ type: 'text' })
  blockHash: string;
}

/** A scheduled reconciliation's result for one share class (reconciliation.ts); the newest feeds /metrics. */
@Entity({ tableName: 'reconciliation_run' })
@Index({ properties: ['shareClassId', 'at'] })
export class ReconciliationRun {
  @PrimaryKey({ type: bigintColumn(), autoincrement: true })
  id: Opt<string>;

  @Property({ type: 'text' })
  shareClassId: string;

  @Property({ type: 'text' })
  chainId: string;

  @Property({ type: bigintColumn() })
  blockNumber: string;

  /** Σ |chain − register| over the holders, in tokens. */
  @Property({ type: 'decimal', precision: 38, scale: 18 })
  totalDifference: string;

  @Property({ type: 'decimal', precision: 38, scale: 18 })
  supplyDifference: string;

  @Property({ type: 'json' })
  result: unknown;

  @Property({ type: 'datetime', length: 3 })
  at: Date;
}
