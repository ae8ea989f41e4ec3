import { Entity, Enum, Index, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { EpochMs } from '../../common/scalars';
import type { Hex } from 'viem';
import { bigintColumn } from '../../persistence/bigint-column';

/**
 * Where a transaction intent stands. An intent is written before anything reaches the chain:
 * - `queued`: waiting for the one writer of its agent key (checked with a call, priced, no nonce yet);
 * - `signed`: nonce allocated, raw transaction and hash stored — nothing sent yet, or the send's
 *   outcome is unknown (a crash): the same bytes are sent again;
 * - `sent`: the node took it; replaced at the same nonce with higher fees when not mined in time;
 * - `mined`: in a block, fewer confirmations than the chain asks for (a reorg sends it again);
 * - `confirmed` / `reverted`: at the confirmation depth; the business outcome was declared, once;
 * - `failed`: never mined: its call reverted before signing, or its nonce went to another transaction.
 */
export enum ChainTxStatus {
  queued = 'queued',
  signed = 'signed',
  sent = 'sent',
  mined = 'mined',
  confirmed = 'confirmed',
  reverted = 'reverted',
  failed = 'failed',
}
registerEnumType(ChainTxStatus, { name: 'ChainTxStatus' });

/** Statuses after which nothing more happens to an intent. */
export const FINAL_TX_STATUSES: readonly ChainTxStatus[] = [ChainTxStatus.confirmed, ChainTxStatus.reverted, ChainTxStatus.failed];

/**
 * A transaction intent of the gateway's agent key: what it is for (purpose and the record it
 * serves), what it calls, and every transaction signed for it (`hashes`: a replacement keeps
 * the nonce and adds a hash; the last one is current).
 */
@ObjectType('ChainTransaction', { description: 'A transaction the gateway sends on a chain, from intent to its confirmation depth.' })
@Entity({ tableName: 'chain_transaction' })
@Index({ properties: ['status', 'id'] })
@Index({
  name: 'chain_transaction_one_intent_per_correlation',
  expression: `create unique index "chain_transaction_one_intent_per_correlation" on "chain_transaction" ("correlation") where "correlation" is not null`,
})
@Index({
  name: 'chain_transaction_one_nonce',
  expression: `create unique index "chain_transaction_one_nonce" on "chain_transaction" ("chain_id", "from_address", "nonce") where "nonce" is not null`,
})
export class ChainTransaction {
  @Field(() => ID)
  @PrimaryKey({ type: bigintColumn(), autoincrement: true })
  id: Opt<string>;

  @Field(() => String)
  @Property({ type: 'text' })
  chainId: string;

  @Field(() => String, { description: 'The agent address that signs it' })
  @Property({ type: 'text' })
  fromAddress: string;

  @Field(() => String, { nullable: true })
  @Property({ type: bigintColumn(), nullable: true })
  nonce?: string;

  @Field(() => String, {
    description: 'What it is for: settlement.mint, settlement.burn, wallet.identity, wallet.claim, wallet.register, wallet.freeze, wallet.delete, deploy',
  })
  @Property({ type: 'text' })
  purpose: string;

  @Field(() => String, {
    nullable: true,
    description: 'What it does, in words, where the purpose does not say (a deployment step: `identity registry`, `token`)',
  })
  @Property({ type: 'text', nullable: true })
  step?: string;

  /**
   * The domain's opaque key for what the intent serves (`order:OR…`: one settlement per order):
   * at most one intent per value. The chain reads nothing into it.
   */
  @Property({ type: 'text', nullable: true })
  correlation?: string;

  @Property({ type: bigintColumn(), nullable: true })
  @Index()
  walletId?: string;

  @Field(() => String, { nullable: true, description: 'Null: a contract creation' })
  @Property({ type: 'text', nullable: true })
  toAddress?: string;

  @Property({ type: 'text' })
  data: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  gasLimit?: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  maxFeePerGas?: string;

  @Property({ type: 'text', nullable: true })
  maxPriorityFeePerGas?: string;

  @Property({ type: 'text', nullable: true })
  rawTx?: string;

  @Field(() => String, { nullable: true, description: 'Hash of the current signed transaction' })
  @Property({ type: 'text', nullable: true })
  hash?: string;

  @Field(() => [String], { description: 'Every hash signed for this intent, oldest first (replacements keep the nonce)' })
  @Property({ type: 'json' })
  hashes: Opt<string[]> = [];

  @Field(() => ChainTxStatus)
  @Enum({ items: () => ChainTxStatus })
  status: Opt<ChainTxStatus> = ChainTxStatus.queued;

  @Field(() => Int)
  @Property({ type: 'integer' })
  confirmations: Opt<number> = 0;

  @Field(() => Int, { description: 'Confirmations the chain asks for before the outcome is declared' })
  @Property({ type: 'integer' })
  requiredConfirmations: number;

  @Field(() => String, { nullable: true })
  @Property({ type: bigintColumn(), nullable: true })
  blockNumber?: string;

  @Property({ type: 'text', nullable: true })
  blockHash?: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  gasUsed?: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  contractAddress?: string;

  @Field(() => String, { nullable: true, description: "The contract's revert reason, out of gas, or why it never reached a block" })
  @Property({ type: 'text', nullable: true })
  revertReason?: string;

  @Field(() => String, { nullable: true, description: 'The last problem met while sending (RPC unreachable…); cleared when it goes through' })
  @Property({ type: 'text', nullable: true })
  lastError?: string;

  @Field(() => EpochMs, { nullable: true })
  @Property({ type: 'datetime', length: 3, nullable: true })
  sentAt?: Date;

  @Field(() => EpochMs)
  @Property({ type: 'datetime', length: 3 })
  createdAt: Date;

  @Field(() => EpochMs)
  @Property({ type: 'datetime', length: 3 })
  updatedAt: Date;

  /** The principal whose request wrote the intent (`ops:…`, `distributor:DT…`, a job): never a header. */
  @Property({ type: 'text', nullable: true })
  requestedBy?: string;
}

/** Columns of an intent a step of the sender changes; null clears an optional one. */
export type IntentPatch = { [K in keyof ChainTransaction]?: ChainTransaction[K] | null };

/** A patch with its update time: every change of an intent says when it happened. */
export const stamped = (patch: IntentPatch): IntentPatch => ({ ...patch, updatedAt: new Date() });

/** The one writer of an agent key on a chain: its lease, and the next nonce it hands out. */
@Entity({ tableName: 'chain_signer' })
export class ChainSigner {
  @PrimaryKey({ type: 'text' })
  chainId: string;

  @PrimaryKey({ type: 'text' })
  address: string;

  @Property({ type: bigintColumn() })
  nextNonce: string;

  @Property({ type: 'text', nullable: true })
  leaseOwner?: string;

  @Property({ type: 'datetime', length: 3, nullable: true })
  leaseUntil?: Date;
}

/**
 * What the gateway deployed once per chain for every token it deploys there: the T-REX
 * implementation authority, the ONCHAINID implementation authority, its claim issuer, and the
 * identity registry storage its tokens share (one whitelist per chain).
 */
@Entity({ tableName: 'chain_setup' })
export class ChainSetup {
  @PrimaryKey({ type: 'text' })
  chainId: string;

  @Property({ type: 'text' })
  agentAddress: Hex;

  @Property({ type: 'text' })
  trexAuthority: Hex;

  @Property({ type: 'text' })
  identityAuthority: Hex;

  @Property({ type: 'text' })
  claimIssuer: Hex;

  @Property({ type: 'text' })
  identityStorage: Hex;

  @Property({ type: 'datetime', length: 3 })
  createdAt: Date;
}
