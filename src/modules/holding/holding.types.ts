import { Field, Int, ObjectType } from 'type-graphql';
import { DecimalScalar } from '../../graphql/scalars';

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
