import { Entity, Index, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { EpochMs } from '../../common/scalars';
import { bigintColumn } from '../../persistence/bigint-column';

/**
 * One ops mutation, as it happened: who (the principal that authenticated), what (the operation),
 * its arguments without secrets, and its outcome. Appended `pending` before the mutation runs and
 * sealed once with its outcome (AuditLog; docs/approvals.md). Append-only: the database refuses
 * every UPDATE but that sealing, and every DELETE (trigger `audit_log_append_only`).
 */
@ObjectType({ description: 'An ops mutation in the append-only audit log' })
@Entity({ tableName: 'audit_log' })
@Index({ properties: ['at'] })
@Index({ name: 'audit_log_pending_index', expression: `create index "audit_log_pending_index" on "audit_log" ("at") where "outcome" = 'pending'` })
export class AuditLogEntry {
  @Field(() => ID)
  @PrimaryKey({ type: bigintColumn(), autoincrement: true })
  id: Opt<string>;

  @Field(() => EpochMs)
  @Property({ type: 'datetime', length: 3 })
  at: Date;

  @Field(() => String, { description: '`ops:<token name>`: the credential, never a header' })
  @Property({ type: 'text' })
  principal: string;

  @Field(() => String, { nullable: true, description: "The caller's `x-actor`, kept as a note" })
  @Property({ type: 'text', nullable: true })
  actorNote?: string;

  @Field(() => String, { description: 'The mutation (`requestWalletRecovery`, `publishNav`, …)' })
  @Property({ type: 'text' })
  operation: string;

  @Field(() => GraphQLJSONObject, { description: 'Its arguments, with tokens, secrets and keys redacted' })
  @Property({ type: 'json' })
  arguments: Record<string, unknown>;

  @Field(() => String, {
    description:
      '`ok`, `error`, or `pending`: still running, or the gateway stopped before it answered (whatever the mutation committed is in the records it touched)',
  })
  @Property({ type: 'text' })
  outcome: string;

  @Field(() => String, { nullable: true, description: 'The error code of a refused or failed mutation (`FORBIDDEN`, `CONFLICT`, …)' })
  @Property({ type: 'text', nullable: true })
  errorCode?: string;

  @Field(() => EpochMs, { nullable: true, description: 'When it answered; null while `pending`' })
  @Property({ type: 'datetime', length: 3, nullable: true })
  answeredAt?: Date;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  requestId?: string;
}
