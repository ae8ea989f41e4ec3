import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { Audited } from '../../persistence/audited.entity';

/** The legal entity that issues funds. */
@ObjectType()
@Entity({ tableName: 'issuer' })
export class Issuer extends Audited {
  @Field(() => ID, { description: '`IS######`' })
  @PrimaryKey({ type: 'text' })
  id: string;

  @Field(() => String)
  @Property({ type: 'text' })
  name: string;

  @Field(() => String, { nullable: true, description: 'Legal entity identifier' })
  @Property({ type: 'text', nullable: true })
  lei?: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  jurisdiction?: string;
}
