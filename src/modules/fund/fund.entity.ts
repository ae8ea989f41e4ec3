import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { Audited } from '../../persistence/audited.entity';
import { Issuer } from '../issuer';

/** A fund of an issuer; its share classes are what distributors sell. */
@ObjectType()
@Entity({ tableName: 'fund' })
export class Fund extends Audited {
  @Field(() => ID, { description: '`FN######`' })
  @PrimaryKey({ type: 'text' })
  id: string;

  @Index()
  @ManyToOne(() => Issuer, { deleteRule: 'restrict' })
  issuer: Issuer;

  @Field(() => String)
  @Property({ type: 'text' })
  name: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  description?: string;
}
