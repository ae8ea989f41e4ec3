import { Field, InputType, Int } from 'type-graphql';
import { DecimalScalar, EpochMs } from '../../common/scalars';
import { InvestorCategory } from '../investor';

@InputType({ description: 'A share class eligibility rule set as it is to be (four-eyes: requestEligibilityRules)' })
export class EligibilityRulesInput {
  @Field(() => String, { description: 'The `eligibleInvestors` code share classes name' })
  code: string;

  @Field(() => [String], { nullable: true, description: 'ISO 3166-1 alpha-2; null: any country not blocked' })
  allowedCountries?: string[] | null;

  @Field(() => [String], { nullable: true, description: 'ISO 3166-1 alpha-2' })
  blockedCountries?: string[] | null;

  @Field(() => [InvestorCategory], { nullable: true, description: 'null: any category' })
  allowedCategories?: InvestorCategory[] | null;

  @Field(() => Int, { nullable: true })
  maxHolders?: number | null;

  @Field(() => DecimalScalar, { nullable: true, description: 'Tokens' })
  maxHoldingPerInvestor?: string | null;

  @Field(() => DecimalScalar, { nullable: true, description: 'Tokens' })
  supplyCap?: string | null;

  @Field(() => String)
  reason: string;
}

@InputType({ description: "An investor's KYC as operations verified it" })
export class InvestorKycInput {
  @Field(() => String)
  investorId: string;

  @Field(() => EpochMs, { nullable: true })
  verifiedAt?: Date | null;

  @Field(() => EpochMs, { nullable: true, description: 'Past it the investor takes no new subscription and is minted nothing' })
  expiresAt?: Date | null;
}
