import { Property, type Opt } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { EpochMs } from '../common/scalars';
import { currentActor, currentPrincipal } from '../common/request-scope';

/**
 * Audit fields every written record carries. They are stamped in one place, the audit
 * subscriber (src/persistence/audit.subscriber.ts), from the request's actor and the app clock.
 */
@ObjectType()
export abstract class Audited {
  @Field(() => EpochMs)
  @Property({ type: 'datetime', length: 3 })
  createdAt: Opt<Date>;

  @Field(() => EpochMs)
  @Property({ type: 'datetime', length: 3 })
  updatedAt: Opt<Date>;

  @Field(() => String)
  @Property({ type: 'text' })
  createdBy: Opt<string>;

  @Field(() => String)
  @Property({ type: 'text' })
  updatedBy: Opt<string>;

  /** The principal that authenticated the first write (`ops:…`, `distributor:DT…`, `partner:PT…`, a job); `createdBy` is only the caller's note. Null on rows older than the column. */
  @Property({ type: 'text', nullable: true })
  createdByPrincipal: Opt<string | null>;

  /** The principal that authenticated the last write. */
  @Property({ type: 'text', nullable: true })
  updatedByPrincipal: Opt<string | null>;
}

/**
 * The audit fields of a record's first write, at `at` by the request's actor (or `by`, preset):
 * what the audit subscriber (src/persistence/audit.subscriber.ts) stamps, and what statements that insert
 * a record themselves write.
 */
export function firstWrite(
  at: Date,
  by: string = currentActor(),
): Pick<Audited, 'createdAt' | 'updatedAt' | 'createdBy' | 'updatedBy' | 'createdByPrincipal' | 'updatedByPrincipal'> {
  const principal = currentPrincipal();
  return { createdAt: at, updatedAt: at, createdBy: by, updatedBy: by, createdByPrincipal: principal, updatedByPrincipal: principal };
}
