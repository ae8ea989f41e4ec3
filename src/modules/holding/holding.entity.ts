import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique, type Opt } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { Audited } from '../../persistence/audited.entity';
import { DECIMAL_COLUMN } from '../../common/money';
import { DecimalScalar } from '../../common/scalars';
import { Investor } from '../investor';
import { ShareClass } from '../share-class';
import { bigintColumn } from '../../persistence/bigint-column';

/** Tokens of a share class an investor holds: the sum of its lots (holding-lot.entity.ts); changed by settled orders and ops adjustments. */
@ObjectType()
@Entity({ tableName: 'holding' })
@Unique({ properties: ['investor', 'shareClass'] })
export class Holding extends Audited {
  @PrimaryKey({ type: bigintColumn(), autoincrement: true })
  id: Opt<string>;

  @ManyToOne(() => Investor, { deleteRule: 'restrict' })
  investor: Investor;

  @Index()
  @ManyToOne(() => ShareClass, { deleteRule: 'restrict' })
  shareClass: ShareClass;

  @Field(() => DecimalScalar)
  @Property({ type: 'decimal', ...DECIMAL_COLUMN, default: '0' })
  balance: Opt<string> = '0';
}
