import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { EpochMs } from '../../common/scalars';
import { DecimalScalar } from '../../common/scalars';

/** An investor's tokens of one share class, with the token and the wallet they sit on. */
@ObjectType()
export class HoldingView {
  @Field(() => String, { description: '`US######`' })
  userId: string;

  @Field(() => String, { description: '`IN######`' })
  investorId: string;

  @Field(() => String)
  shareClassId: string;

  @Field(() => DecimalScalar, { description: 'Tokens held, a decimal string; "0" when none' })
  tokenBalance: string;

  @Field(() => DecimalScalar, {
    description:
      "Tokens settled at least the share class's `lockup` days ago (all of them without a lock-up); a redemption may use these, less those promised to open redemptions",
  })
  unlockedBalance: string;

  @Field(() => DecimalScalar, {
    description:
      'Tokens expected from accepted subscriptions not yet settled, at the tokens each was priced at on acceptance (an order not yet priced counts for none); a decimal string',
  })
  pendingIn: string;

  @Field(() => DecimalScalar, {
    description: 'Tokens promised to open (pending or accepted) redemptions, which further redemptions cannot use; a decimal string',
  })
  pendingOut: string;

  @Field(() => String, { nullable: true, description: "The investor's wallet on the token's chain (whitelisted first), if any" })
  walletAddress: string | null;

  @Field(() => String, { nullable: true })
  chainId: string | null;

  @Field(() => String, { nullable: true })
  tokenName: string | null;

  @Field(() => String, { nullable: true })
  symbol: string | null;

  @Field(() => Int, { nullable: true })
  decimals: number | null;

  @Field(() => String, { nullable: true })
  tokenAddress: string | null;
}

/** Ops: one holding adjustment, booked as a lot (positive) or taken from the oldest lots (negative). */
@InputType()
export class HoldingAdjustmentInput {
  @Field(() => String, { description: '`IN######`' })
  investorId: string;

  @Field(() => String, { description: '`SC######`' })
  shareClassId: string;

  @Field(() => DecimalScalar, { description: 'Tokens, signed: positive books them in, negative takes them out' })
  quantity: string;

  @Field(() => String, { description: 'Why, e.g. "transfer in from the previous register"' })
  reason: string;

  @Field(() => EpochMs, { nullable: true, description: 'When the tokens settled (lock-up counts from it); default now' })
  settledAt?: Date | null;
}
