import { Field, ID, InputType, Int } from 'type-graphql';
import { PageOf } from '../../persistence/pagination';
import { ShareClass } from './share-class.entity';
import { NavAssetClass } from './nav-tolerance';
import { BankDetails, ShareClassDetails, ShareClassMeta, ShareClassMetrics, ShareClassOverview, SubRedemption } from './share-class.parts';

/** Every documented field of a share class. Its primary token (and so `defaultChainId`) comes with `createToken`. */
@InputType()
export class CreateShareClassInput {
  @Field(() => ID, { description: '`FN######`' })
  fundId: string;

  @Field(() => String, { description: 'ISO 4217 denomination currency' })
  currency: string;

  @Field(() => String, { description: 'Supply-side platform that processes orders, e.g. `supply-sim`' })
  provider: string;

  @Field(() => String, { nullable: true, description: 'active, suspended or closed; default `active`' })
  status?: string | null;

  @Field(() => Int, { description: 'Subscription fee, bps (0 to 10000)' })
  feesSubBps: number;

  @Field(() => Int, { description: 'Redemption fee, bps' })
  feesRedBps: number;

  @Field(() => Int, { description: 'Management fee, bps' })
  feesMgmtBps: number;

  @Field(() => Int, { description: 'Performance fee, bps' })
  feesPerfBps: number;

  @Field(() => Int, { description: 'High-watermark threshold, bps' })
  feesWatermarkBps: number;

  @Field(() => NavAssetClass, { nullable: true, description: 'The fund type that sets the default NAV tolerance (CSSF 24/856); default `other`' })
  navAssetClass?: NavAssetClass | null;

  @Field(() => Int, {
    nullable: true,
    description: "The class's own NAV tolerance in bps (0 to 10000), replacing its asset class's: money market 20, bond and mixed 50, equity and other 100",
  })
  navToleranceBps?: number | null;

  @Field(() => ShareClassMeta)
  meta: ShareClassMeta;

  @Field(() => ShareClassDetails)
  details: ShareClassDetails;

  @Field(() => ShareClassMetrics)
  metrics: ShareClassMetrics;

  @Field(() => ShareClassOverview)
  overview: ShareClassOverview;

  @Field(() => SubRedemption)
  subRedemption: SubRedemption;

  @Field(() => BankDetails)
  bank: BankDetails;

  @Field(() => [Int], { nullable: true, description: 'Dealing week, ISO weekdays 1 Monday … 7 Sunday (default Monday to Friday)' })
  dealingWeekdays?: number[] | null;
}

/** Only the given fields change; a given sub-object replaces the stored one whole. */
@InputType()
export class UpdateShareClassInput {
  @Field(() => String, { nullable: true })
  currency?: string | null;

  @Field(() => String, { nullable: true })
  provider?: string | null;

  @Field(() => String, { nullable: true, description: 'active, suspended or closed' })
  status?: string | null;

  @Field(() => Int, { nullable: true })
  feesSubBps?: number | null;

  @Field(() => Int, { nullable: true })
  feesRedBps?: number | null;

  @Field(() => Int, { nullable: true })
  feesMgmtBps?: number | null;

  @Field(() => Int, { nullable: true })
  feesPerfBps?: number | null;

  @Field(() => Int, { nullable: true })
  feesWatermarkBps?: number | null;

  @Field(() => NavAssetClass, { nullable: true, description: 'The fund type that sets the default NAV tolerance (CSSF 24/856)' })
  navAssetClass?: NavAssetClass | null;

  @Field(() => Int, { nullable: true, description: "The class's own NAV tolerance in bps (0 to 10000), replacing its asset class's. Absent: unchanged" })
  navToleranceBps?: number | null;

  @Field(() => ShareClassMeta, { nullable: true })
  meta?: ShareClassMeta | null;

  @Field(() => ShareClassDetails, { nullable: true })
  details?: ShareClassDetails | null;

  @Field(() => ShareClassMetrics, { nullable: true })
  metrics?: ShareClassMetrics | null;

  @Field(() => ShareClassOverview, { nullable: true })
  overview?: ShareClassOverview | null;

  @Field(() => SubRedemption, { nullable: true })
  subRedemption?: SubRedemption | null;

  @Field(() => BankDetails, { nullable: true })
  bank?: BankDetails | null;

  @Field(() => [Int], { nullable: true, description: 'Replaces the dealing week, ISO weekdays 1 Monday … 7 Sunday' })
  dealingWeekdays?: number[] | null;
}

@InputType()
export class ShareClassFilter {
  @Field(() => ID, { nullable: true, description: 'Share classes of this fund' })
  fundId?: string | null;

  @Field(() => String, { nullable: true, description: 'e.g. `active`' })
  status?: string | null;
}

export const ShareClassPage = PageOf(ShareClass, 'ShareClassPage');
