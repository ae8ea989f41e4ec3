import { Field, InputType, ObjectType } from 'type-graphql';
import { DecimalScalar } from '../../common/scalars';

/*
 * Inputs of the one-step flow. Fields the description validates with its own messages are
 * nullable, so the service answers a missing one with `<field> is required`.
 */

@InputType()
export class OneStepPlacementInput {
  @Field(() => String, { nullable: true, description: '`DT######` (surface R) or `PT######` (surface O); required' })
  distributorId?: string;

  @Field(() => String, { nullable: true, description: '`IN######`; required on surface R' })
  investorId?: string;

  @Field(() => String, { nullable: true, description: '`US######`; required on surface O' })
  userId?: string;

  @Field(() => String, { nullable: true, description: '`SC######`; required' })
  shareClassId?: string;

  @Field(() => String, { nullable: true, description: 'Numeric EVM chain id; needed (here or on the investor) before settlement' })
  chainId?: string;

  @Field(() => String, { nullable: true, description: 'Wallet to receive (subscription) or give up (redemption) tokens' })
  walletAddress?: string;
}

@InputType()
export class OneStepSubscriptionInput extends OneStepPlacementInput {
  @Field(() => DecimalScalar, { nullable: true, description: 'Fiat amount, >= 0; required' })
  amount?: string;

  @Field(() => String, { nullable: true, description: 'Default: the share class currency' })
  currency?: string;
}

@InputType()
export class OneStepRedemptionInput extends OneStepPlacementInput {
  @Field(() => DecimalScalar, { nullable: true, description: 'Tokens, >= 0 and <= the holding less open redemptions; required' })
  tokenCount?: string;
}

@ObjectType()
export class CancelOrderResult {
  @Field(() => Boolean)
  success: boolean;

  @Field(() => String)
  message: string;
}
