import { Entity, Index, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { EpochMs } from '../../common/scalars';
import { bigintColumn } from '../../persistence/bigint-column';

/**
 * One ops mutation, as it happened: who (the principal that authenticated), what (the operation),
 * its arguments without secrets, and its outcome. Appended once the mutation has committed, or
 * once it was refused or failed (AuditLog.record; docs/approvals.md names the crash window this
 * leaves). Append-only: the database refuses UPDATE and DELETE on this table (trigger
 * `audit_log_append_only`).
 */
@ObjectType({ description: 'An ops mutation in the append-only audit log' })
@Entity({ tableName: 'audit_log' })
@Index({ properties: ['at'] })
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

  @Field(() => String, { description: '`ok` or `error`' })
  @Property({ type: 'text' })
  outcome: string;

  @Field(() => String, { nullable: true, description: 'The error code of a refused or failed mutation (`FORBIDDEN`, `CONFLICT`, …)' })
  @Property({ type: 'text', nullable: true })
  errorCode?: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  requestId?: string;
}
