import { Entity, Enum, Index, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { bigintColumn } from '../../persistence/bigint-column';
import { EpochMs } from '../../common/scalars';
import type { ApprovalEffect } from './approval-effect';

/** What a request, once approved, runs (src/modules/approval/approval-kinds.ts). */
export enum ApprovalKind {
  wallet_recovery = 'wallet_recovery',
  holding_adjustment = 'holding_adjustment',
  forced_transfer = 'forced_transfer',
  /** A NAV outside its share class's tolerance, waiting for a second principal (src/modules/nav/nav-confirmation.ts). */
  nav_confirmation = 'nav_confirmation',
  /** A confirmed NAV's corrected close: re-prices and compensates what it priced (src/modules/correction/nav-correction.ts). */
  nav_correction = 'nav_correction',
  /** A new ops principal with `operator`, `approver` or `admin` (ops-principal-requests.ts). */
  ops_principal = 'ops_principal',
  /** A change of an ops principal's roles. */
  ops_roles = 'ops_roles',
  /** A new token for an ops principal that lost its own; its other tokens are revoked. */
  ops_token_reset = 'ops_token_reset',
  /** A share class eligibility rule set, created or changed (eligibility-requests.ts). */
  eligibility_rules = 'eligibility_rules',
  /** An investor's category upgraded (eligibility-requests.ts). */
  investor_category = 'investor_category',
  /** A frozen wallet unfrozen on a share class's token (src/modules/investor/wallet-freeze.ts). */
  wallet_unfreeze = 'wallet_unfreeze',
}

/** requested → approved → executed | failed, or requested → rejected. Nothing else moves it. */
export enum ApprovalStatus {
  requested = 'requested',
  approved = 'approved',
  rejected = 'rejected',
  executed = 'executed',
  failed = 'failed',
}

registerEnumType(ApprovalKind, { name: 'ApprovalKind' });
registerEnumType(ApprovalStatus, { name: 'ApprovalStatus' });

/**
 * A four-eyes request, stored as data: one principal asks, another approves or rejects it; the
 * approved call runs once (`executed`, or `failed` with its reason).
 */
@ObjectType({ description: 'A request that a second ops principal must approve before it runs' })
@Entity({ tableName: 'approval_request' })
@Index({ properties: ['status', 'executeAfter'] })
export class ApprovalRequest {
  @Field(() => ID)
  @PrimaryKey({ type: bigintColumn(), autoincrement: true })
  id: Opt<string>;

  @Field(() => ApprovalKind)
  @Enum({ items: () => ApprovalKind })
  kind: ApprovalKind;

  @Field(() => GraphQLJSONObject, { description: 'The arguments the approved call runs with' })
  @Property({ type: 'json' })
  arguments: Record<string, unknown>;

  /**
   * What it will do, computed from the world when it was requested (approval-effect.ts); approval
   * refuses a world that no longer gives it, and runs from it. Shown as `effect`
   * (ApprovalResolver). Null only on requests made before requests bound their effect: those are
   * refused at approval (Migration20261129400000). The database refuses changing it once set.
   */
  @Property({ type: 'json', nullable: true })
  effect?: ApprovalEffect | null;

  @Field(() => String)
  @Property({ type: 'text' })
  reason: string;

  @Field(() => String, { nullable: true, description: 'The investor it concerns (`IN…`)' })
  @Property({ type: 'text', nullable: true })
  investorId?: string;

  @Field(() => String, { description: 'The principal that asked (`ops:<name>`)' })
  @Property({ type: 'text' })
  requestedBy: string;

  /** The ops principal that asked (`ops_principal.id`): what four eyes compare, here and in `approval_request_four_eyes`. */
  @Property({ type: bigintColumn(), nullable: true })
  requestedByPrincipalId?: string;

  @Field(() => EpochMs)
  @Property({ type: 'datetime', length: 3 })
  requestedAt: Date;

  @Field(() => ApprovalStatus)
  @Enum({ items: () => ApprovalStatus })
  status: ApprovalStatus;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  decidedBy?: string;

  /** The ops principal that decided; never the one that asked (`approval_request_four_eyes`). */
  @Property({ type: bigintColumn(), nullable: true })
  decidedByPrincipalId?: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  decisionReason?: string;

  @Field(() => EpochMs, { nullable: true })
  @Property({ type: 'datetime', length: 3, nullable: true })
  decidedAt?: Date;

  @Field(() => EpochMs, { nullable: true, description: 'An approved recovery runs at or after this (RECOVERY_DELAY_SECONDS after approval)' })
  @Property({ type: 'datetime', length: 3, nullable: true })
  executeAfter?: Date;

  @Field(() => EpochMs, { nullable: true })
  @Property({ type: 'datetime', length: 3, nullable: true })
  executedAt?: Date;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'What the call answered (the new wallet, the holding)' })
  @Property({ type: 'json', nullable: true })
  result?: Record<string, unknown>;

  @Field(() => String, { nullable: true, description: 'Why the approved call failed' })
  @Property({ type: 'text', nullable: true })
  failure?: string;

  /** Never stored: a part of a new ops token, in the one answer that hands it out (ops-principal-requests.ts). */
  @Field(() => String, {
    nullable: true,
    description:
      "Shown once, never stored: for a new principal or a token reset, the requester's answer carries the token's first part (`ops_….`) and the approver's the second; the principal's token is the first followed by the second, so neither admin alone holds it.",
  })
  @Property({ persist: false })
  tokenPart?: string;
}
