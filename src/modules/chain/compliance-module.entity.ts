import { Entity, Enum, Index, PrimaryKey, PrimaryKeyProp, Property, type Opt } from '@mikro-orm/core';
import { bigintColumn } from '../../persistence/bigint-column';

/**
 * A T-REX compliance module the gateway deployed on a chain (an implementation behind its
 * `ModuleProxy`, `initialize`d): one of each per chain, shared by every token's modular
 * compliance (a module keeps its state per compliance).
 */
@Entity({ tableName: 'chain_compliance_module' })
export class ChainComplianceModule {
  [PrimaryKeyProp]?: ['chainId', 'name'];

  @PrimaryKey({ type: 'text' })
  chainId: string;

  /** The contract's name in T-REX 4.1.6: `CountryAllowModule`, `CountryRestrictModule`, `MaxBalanceModule`, `SupplyLimitModule`. */
  @PrimaryKey({ type: 'text' })
  name: string;

  /** The proxy, which compliances bind. */
  @Property({ type: 'text' })
  address: string;

  @Property({ type: 'timestamptz' })
  createdAt: Date;
}

export enum IntentSequenceStatus {
  running = 'running',
  done = 'done',
  failed = 'failed',
}

/** One call of a sequence: what it calls, in words. */
export interface SequenceStep {
  to: string;
  data: string;
  step: string;
}

/**
 * Calls that must reach the chain one after another, each checked against the state the one
 * before left (the sender checks a call before signing it, so a `callModuleFunction` queued with
 * the `addModule` it needs would fail its check): the first is queued at once, each next one in
 * the transaction that declares the outcome of the one before (intent-sequence.ts). A step that
 * fails stops the sequence with its reason.
 */
@Entity({ tableName: 'chain_intent_sequence' })
export class ChainIntentSequence {
  @PrimaryKey({ type: bigintColumn(), autoincrement: true })
  id: Opt<string>;

  @Property({ type: 'text' })
  chainId: string;

  @Property({ type: 'text' })
  purpose: string;

  /** What it is for, in words (`rule set PROF on 0x…`). */
  @Property({ type: 'text' })
  subject: string;

  @Property({ type: 'json' })
  steps: SequenceStep[];

  /** The index of the step queued now. */
  @Property({ type: 'integer' })
  current: Opt<number> = 0;

  @Index()
  @Property({ type: bigintColumn(), nullable: true })
  currentTxId?: string;

  @Enum({ items: () => IntentSequenceStatus })
  status: Opt<IntentSequenceStatus> = IntentSequenceStatus.running;

  @Property({ type: 'text', nullable: true })
  error?: string;

  @Property({ type: 'timestamptz' })
  createdAt: Date;

  @Property({ type: 'timestamptz' })
  updatedAt: Date;
}
