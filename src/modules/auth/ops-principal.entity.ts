import { Entity, PrimaryKey, Property, Unique, type Opt } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { bigintColumn } from '../../persistence/bigint-column';
import { EpochMs } from '../../common/scalars';

/**
 * A person of operations: one name (normalised, unique: ops-principal-name.ts), the roles it holds,
 * and the ops tokens it authenticates with (OpsToken.principal). Four eyes compare these ids.
 */
@ObjectType({ description: 'An ops principal: a person of operations, with its roles' })
@Entity({ tableName: 'ops_principal' })
export class OpsPrincipal {
  @Field(() => ID)
  @PrimaryKey({ type: bigintColumn(), autoincrement: true })
  id: Opt<string>;

  @Field(() => String, { description: 'Trimmed, NFKC, case-folded; unique. Records name it `ops:<name>`.' })
  @Unique({ name: 'ops_principal_name_unique' })
  @Property({ type: 'text' })
  name: string;

  /** What it may do (src/access/ops-roles.ts); at least one. Changed only by a request another admin approves. */
  @Field(() => [String], { description: '`viewer`, `operator`, `approver`, `admin`' })
  @Property({ type: 'text[]' })
  roles: string[];

  @Field(() => EpochMs)
  @Property({ type: 'datetime', length: 3 })
  createdAt: Date;

  @Field(() => String, { description: 'The principal that created it (`ops:<name>`), `cli` (break-glass), or `migration`' })
  @Property({ type: 'text' })
  createdBy: string;
}
