import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { DecimalScalar, EpochMs } from '../../common/scalars';
import { IncomePayment } from './distribution-policy.entity';
import { DistributionStatus, EntitlementStatus } from './distribution.entity';

@InputType('DeclareDistributionInput', {
  description:
    'A period (periodFrom..periodTo, days of the dealing zone, both included) or a recordDate; and exactly one of ratePerTokenPerDay and amountPerToken (the latter with a recordDate).',
})
export class DeclareDistributionInput {
  @Field(() => ID) shareClassId: string;
  @Field(() => String, { nullable: true }) periodFrom?: string;
  @Field(() => String, { nullable: true }) periodTo?: string;
  @Field(() => String, { nullable: true }) recordDate?: string;
  @Field(() => String) payDate: string;
  @Field(() => DecimalScalar, { nullable: true, description: 'Currency per token per day, on each daily closing balance' }) ratePerTokenPerDay?: string;
  @Field(() => DecimalScalar, { nullable: true, description: 'Currency per token held at the close of the record date' }) amountPerToken?: string;
}

@ObjectType('DistributionPreviewHolder')
export class DistributionPreviewHolderView {
  @Field(() => ID) investorId: string;
  @Field(() => ID) distributorId: string;
  @Field(() => DecimalScalar, { description: 'Σ daily closing balances (token-days); the record date’s balance for a record date' }) tokenDays: string;
  @Field(() => Int) daysHeld: number;
  @Field(() => DecimalScalar, { description: 'Unrounded entitlement' }) gross: string;
}

@ObjectType('DistributionPreview', { description: 'Ops: what declaring would compute now, written nowhere.' })
export class DistributionPreviewView {
  @Field(() => ID) shareClassId: string;
  @Field(() => String) periodFrom: string;
  @Field(() => String) periodTo: string;
  @Field(() => String) payDate: string;
  @Field(() => IncomePayment) payment: IncomePayment;
  @Field(() => String) currency: string;
  @Field(() => String) timeZone: string;
  @Field(() => DecimalScalar) gross: string;
  @Field(() => [DistributionPreviewHolderView]) holders: DistributionPreviewHolderView[];
}

@ObjectType('IncomeEntry', { description: 'An investor’s income: one distribution’s entitlement and how it was paid.' })
export class IncomeEntryView {
  @Field(() => ID) distributionId: string;
  @Field(() => ID) investorId: string;
  @Field(() => ID) distributorId: string;
  @Field(() => ID) shareClassId: string;
  @Field(() => String) periodFrom: string;
  @Field(() => String) periodTo: string;
  @Field(() => String) payDate: string;
  @Field(() => IncomePayment) payment: IncomePayment;
  @Field(() => String) currency: string;
  @Field(() => DistributionStatus) distributionStatus: DistributionStatus;
  @Field(() => EntitlementStatus) status: EntitlementStatus;
  @Field(() => DecimalScalar) tokenDays: string;
  @Field(() => DecimalScalar) gross: string;
  @Field(() => DecimalScalar, { nullable: true }) amount: string | null;
  @Field(() => DecimalScalar, { nullable: true }) tokens: string | null;
  @Field(() => String, { nullable: true }) transferHash: string | null;
  @Field(() => String, { nullable: true }) failureReason: string | null;
  @Field(() => EpochMs, { nullable: true }) paidAt: Date | null;
}
