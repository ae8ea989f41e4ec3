import { Property, type Opt } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { EpochMs } from '../graphql/scalars';

/**
 * Audit fields every written record carries. They are stamped in one place, the audit
 * subscriber (src/db/audit.subscriber.ts), from the request's actor and the app clock.
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
}
