import { Entity, Index, ManyToOne, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { Audited } from '../../persistence/audited.entity';
import { ShareClass } from '../share-class';

/**
 * An on-chain token of a share class. Exactly one is primary per share class (a partial unique
 * index holds it); the primary token's chain is the share class's `defaultChainId`.
 */
@ObjectType()
@Entity({ tableName: 'token' })
@Index({ properties: ['chainId', 'contractAddress'] })
@Index({
  name: 'token_primary_per_share_class',
  expression: 'create unique index "token_primary_per_share_class" on "token" ("share_class_id") where "is_primary"',
})
export class Token extends Audited {
  @Field(() => ID, { description: '`TK######`' })
  @PrimaryKey({ type: 'text' })
  id: string;

  @Index()
  @ManyToOne(() => ShareClass, { deleteRule: 'restrict' })
  shareClass: ShareClass;

  @Field(() => String, { description: 'Numeric EVM chain id' })
  @Property({ type: 'text' })
  chainId: string;

  @Field(() => String)
  @Property({ type: 'text' })
  contractAddress: string;

  @Field(() => String)
  @Property({ type: 'text' })
  name: string;

  @Field(() => String)
  @Property({ type: 'text' })
  symbol: string;

  @Field(() => Int)
  @Property({ type: 'integer' })
  decimals: number;

  @Field(() => Boolean)
  @Property({ type: 'boolean', default: false })
  isPrimary: Opt<boolean> = false;

  @Field(() => String, {
    nullable: true,
    description: "The token's ERC-3643 identity registry (its whitelist); null for a token the gateway has not read on chain",
  })
  @Property({ type: 'text', nullable: true })
  identityRegistry?: string;

  /** The identity registry storage behind it: tokens sharing one share one whitelist. */
  @Property({ type: 'text', nullable: true })
  identityStorage?: string;
}
