import { Field, ID, Int, ObjectType } from 'type-graphql';
import { DecimalScalar, EpochMs } from '../../common/scalars';
import { CompensationAction } from './nav-compensation.entity';

@ObjectType('NavRepricing', { description: 'An order priced at the NAV and not settled: its price now and at the corrected close' })
export class NavRepricingView {
  @Field(() => ID)
  orderId: string;

  @Field(() => String, { description: '`two_step` or `one_step`' })
  flow: string;

  @Field(() => String)
  type: string;

  @Field(() => String)
  status: string;

  @Field(() => DecimalScalar)
  navBefore: string;

  @Field(() => DecimalScalar)
  navAfter: string;

  @Field(() => DecimalScalar, { nullable: true, description: 'Two-step: `amountTokensEstimated`; one-step: `settlementTokens` (the estimate)' })
  tokensBefore: string | null;

  @Field(() => DecimalScalar, { nullable: true })
  tokensAfter: string | null;

  @Field(() => DecimalScalar, { nullable: true, description: "One-step: the estimate's `settlementAmount` (a redemption's proceeds)" })
  amountBefore: string | null;

  @Field(() => DecimalScalar, { nullable: true })
  amountAfter: string | null;
}

@ObjectType('NavCompensation', {
  description: 'An order settled at the NAV: the tokens the corrected close gives minus those that moved, and what approving the correction books',
})
export class NavCompensationView {
  @Field(() => ID)
  orderId: string;

  @Field(() => String)
  type: string;

  @Field(() => String)
  investorId: string;

  @Field(() => String, { nullable: true, description: 'The delivery wallet tokens are minted to or burned from' })
  wallet: string | null;

  @Field(() => DecimalScalar, { description: 'Tokens that moved at settlement' })
  tokensMoved: string;

  @Field(() => DecimalScalar, { description: 'Tokens the corrected close gives (a redemption: its own tokens)' })
  tokensDue: string;

  @Field(() => DecimalScalar, { description: 'tokensDue − tokensMoved' })
  tokensDifference: string;

  @Field(() => DecimalScalar, { nullable: true, description: 'Subscription: the amount invested; redemption: the proceeds paid' })
  amountSettled: string | null;

  @Field(() => DecimalScalar, { nullable: true, description: 'Redemption: the proceeds at the corrected close' })
  amountDue: string | null;

  @Field(() => String)
  currency: string;

  @Field(() => DecimalScalar, { description: "The order's error in bps of what is due" })
  errorBps: string;

  @Field(() => CompensationAction, { nullable: true, description: 'What approving books; null: nothing (below the tolerance, or no difference)' })
  action: CompensationAction | null;

  @Field(() => DecimalScalar, { nullable: true, description: '`cash`: due to the investor (positive) or by the investor (negative)' })
  cashAmount: string | null;
}

@ObjectType('NavCorrectionPreview', { description: 'What correcting a NAV to a close would do; nothing is written' })
export class NavCorrectionPreviewView {
  @Field(() => ID)
  navId: string;

  @Field(() => String)
  shareClassId: string;

  @Field(() => String)
  entryId: string;

  @Field(() => EpochMs)
  publishedAt: Date;

  @Field(() => String)
  currency: string;

  @Field(() => DecimalScalar, { description: "The NAV's close now" })
  close: string;

  @Field(() => DecimalScalar)
  correctedClose: string;

  @Field(() => DecimalScalar, { description: "The NAV's error: |close − correctedClose| / correctedClose × 10,000" })
  errorBps: string;

  @Field(() => Int, { description: "The share class's NAV tolerance" })
  toleranceBps: number;

  @Field(() => Boolean, { description: 'Above the tolerance, approving books the compensations; at or below it, nothing is due' })
  aboveTolerance: boolean;

  @Field(() => [NavRepricingView])
  repricings: NavRepricingView[];

  @Field(() => [NavCompensationView])
  compensations: NavCompensationView[];
}
