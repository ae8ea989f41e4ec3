import { Embedded, Entity, Enum, Index, ManyToOne, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { Audited } from '../../persistence/audited.entity';
import { Fund } from '../fund';
import { NavAssetClass } from './nav-tolerance';
import { BankDetails, ShareClassDetails, ShareClassMeta, ShareClassMetrics, ShareClassOverview, SubRedemption } from './share-class.parts';

/** Read-only to distributors; provisioned by operations. `defaultChainId` is its primary token's chain. */
@ObjectType()
@Entity({ tableName: 'share_class' })
export class ShareClass extends Audited {
  @Field(() => ID, { description: '`SC######`' })
  @PrimaryKey({ type: 'text' })
  id: string;

  @Index()
  @ManyToOne(() => Fund, { deleteRule: 'restrict' })
  fund: Fund;

  @Field(() => String, { description: 'ISO denomination currency' })
  @Property({ type: 'text' })
  currency: string;

  @Field(() => String, { description: 'Supply-side platform that processes orders' })
  @Property({ type: 'text' })
  provider: string;

  @Field(() => String, { description: 'Lifecycle status; active share classes are `active`' })
  @Property({ type: 'text', default: 'active' })
  status: Opt<string> = 'active';

  @Field(() => Int)
  @Property({ type: 'integer' })
  feesSubBps: number;

  @Field(() => Int)
  @Property({ type: 'integer' })
  feesRedBps: number;

  @Field(() => Int)
  @Property({ type: 'integer' })
  feesMgmtBps: number;

  @Field(() => Int)
  @Property({ type: 'integer' })
  feesPerfBps: number;

  @Field(() => Int)
  @Property({ type: 'integer' })
  feesWatermarkBps: number;

  @Field(() => NavAssetClass, { description: 'The fund type that sets the default NAV tolerance (CSSF 24/856); default `other`' })
  @Enum({ items: () => NavAssetClass, default: NavAssetClass.other })
  navAssetClass: Opt<NavAssetClass> = NavAssetClass.other;

  /** The class's own NAV tolerance (bps), replacing its asset class's; null: the asset class's (`navToleranceBps` answers the one in force). */
  @Property({ type: 'integer', nullable: true })
  navToleranceOverrideBps: Opt<number> | null = null;

  @Field(() => ShareClassMeta)
  @Embedded(() => ShareClassMeta, { object: true })
  meta: ShareClassMeta;

  @Field(() => ShareClassDetails)
  @Embedded(() => ShareClassDetails, { object: true })
  details: ShareClassDetails;

  @Field(() => ShareClassMetrics)
  @Embedded(() => ShareClassMetrics, { object: true })
  metrics: ShareClassMetrics;

  @Field(() => ShareClassOverview)
  @Embedded(() => ShareClassOverview, { object: true })
  overview: ShareClassOverview;

  @Field(() => SubRedemption)
  @Embedded(() => SubRedemption, { object: true })
  subRedemption: SubRedemption;

  @Field(() => BankDetails)
  @Embedded(() => BankDetails, { object: true })
  bank: BankDetails;

  @Field(() => [Int], {
    description: 'Dealing week: the ISO weekdays it deals on, 1 Monday … 7 Sunday, ascending (default Monday to Friday); holidays still apply',
  })
  @Property({ type: 'json' })
  dealingWeekdays: Opt<number[]> = [...WEEKDAYS_MONDAY_TO_FRIDAY];
}

/** The dealing week of a share class unless ops set one. */
export const WEEKDAYS_MONDAY_TO_FRIDAY: readonly number[] = Object.freeze([1, 2, 3, 4, 5]);
