import { Entity, Enum, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { EpochMs } from '../../common/scalars';

/** What a share class does with its income. */
export enum IncomeTreatment {
  /** Income stays in the NAV: nothing is ever paid. */
  accumulating = 'accumulating',
  /** Income is paid to the holders by its distributions. */
  distributing = 'distributing',
}
registerEnumType(IncomeTreatment, { name: 'IncomeTreatment' });

/** How a distributing class pays. */
export enum IncomePayment {
  /** New tokens minted at the pay date's NAV (BUIDL's monthly dividend in kind). */
  reinvest = 'reinvest',
  /** An amount owed to the holder's distributor, in the class's currency. */
  cash = 'cash',
}
registerEnumType(IncomePayment, { name: 'IncomePayment' });

/**
 * A share class's structured income policy, in its own table rather than on the share class: the
 * REST field `subRedemption.distributionPolicy` stays the description's free text, and a class
 * without a row here is accumulating (nothing to distribute) until ops say otherwise.
 */
@ObjectType('DistributionPolicy')
@Entity({ tableName: 'distribution_policy' })
export class DistributionPolicy {
  @Field(() => ID)
  @PrimaryKey({ type: 'text' })
  shareClassId: string;

  @Field(() => IncomeTreatment)
  @Enum({ items: () => IncomeTreatment })
  treatment: IncomeTreatment;

  @Field(() => IncomePayment, { nullable: true, description: 'How a distributing class pays; null when accumulating' })
  @Enum({ items: () => IncomePayment, nullable: true })
  payment?: IncomePayment | null;

  @Field(() => EpochMs)
  @Property({ type: 'datetime', length: 3 })
  updatedAt: Date;

  @Field(() => String)
  @Property({ type: 'text' })
  updatedBy: string;
}
