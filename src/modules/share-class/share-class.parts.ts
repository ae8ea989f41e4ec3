import { Embeddable, Property } from '@mikro-orm/core';
import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { DecimalScalar } from '../../common/scalars';

/*
 * The documented sub-objects of a share class. Each is stored as one JSONB column and is both
 * the GraphQL output type and the provisioning input type, with the description's field names,
 * so the REST facade hands them through unchanged.
 */

@ObjectType('ShareClassMeta')
@InputType('ShareClassMetaInput')
@Embeddable()
export class ShareClassMeta {
  @Field(() => String, { description: 'Display name' })
  @Property({ type: 'text' })
  name: string;

  @Field(() => String, { description: 'Investment manager' })
  @Property({ type: 'text' })
  manager: string;
}

@ObjectType('ShareClassDetails')
@InputType('ShareClassDetailsInput')
@Embeddable()
export class ShareClassDetails {
  @Field(() => String)
  @Property({ type: 'text' })
  isin: string;

  @Field(() => String)
  @Property({ type: 'text' })
  jurisdiction: string;

  @Field(() => Number)
  @Property({ type: 'double' })
  minimumInvestment_fiat: number;
}

@ObjectType('ShareClassMetrics')
@InputType('ShareClassMetricsInput')
@Embeddable()
export class ShareClassMetrics {
  @Field(() => Int, { description: '1250 = 12.50%' })
  @Property({ type: 'integer' })
  apy_bps: number;

  @Field(() => DecimalScalar)
  @Property({ type: 'text' })
  tvl_fiat: string;

  @Field(() => DecimalScalar, { description: '7-day TVL change' })
  @Property({ type: 'text' })
  change7D: string;

  @Field(() => String)
  @Property({ type: 'text' })
  currency: string;

  @Field(() => Int, { description: '-1 = open-ended' })
  @Property({ type: 'integer' })
  maturity_days: number;
}

@ObjectType('ShareClassOverview')
@InputType('ShareClassOverviewInput')
@Embeddable()
export class ShareClassOverview {
  @Field(() => String)
  @Property({ type: 'text' })
  assetClass: string;

  @Field(() => String)
  @Property({ type: 'text' })
  description: string;

  @Field(() => Int, { description: 'Typical scale 1 to 5' })
  @Property({ type: 'integer' })
  riskLevel: number;
}

@ObjectType('SubRedemption')
@InputType('SubRedemptionInput')
@Embeddable()
export class SubRedemption {
  @Field(() => Int, { description: 'days' })
  @Property({ type: 'integer' })
  subFreq: number;

  @Field(() => Int, { description: 'days' })
  @Property({ type: 'integer' })
  redFreq: number;

  @Field(() => Int, { description: 'days relative to dealing day' })
  @Property({ type: 'integer' })
  cutOffTime_days: number;

  @Field(() => Int, { description: 'days; 0 = none' })
  @Property({ type: 'integer' })
  lockup: number;

  @Field(() => String)
  @Property({ type: 'text' })
  eligibleInvestors: string;

  @Field(() => String)
  @Property({ type: 'text' })
  distributionPolicy: string;
}

@ObjectType('BankDetails')
@InputType('BankDetailsInput')
@Embeddable()
export class BankDetails {
  @Field(() => String)
  @Property({ type: 'text' })
  accountHolderName: string;

  @Field(() => String)
  @Property({ type: 'text' })
  accountNumber: string;

  @Field(() => String)
  @Property({ type: 'text' })
  accountType: string;

  @Field(() => String)
  @Property({ type: 'text' })
  bankName: string;

  @Field(() => String)
  @Property({ type: 'text' })
  swiftCode: string;

  @Field(() => String)
  @Property({ type: 'text' })
  currency: string;
}
