import { Field, ID, InputType, Int } from 'type-graphql';
import { PageOf } from '../../persistence/pagination';
import { Token } from './token.entity';

@InputType()
export class CreateTokenInput {
  @Field(() => ID, { description: '`SC######`' })
  shareClassId: string;

  @Field(() => String, { description: 'Numeric EVM chain id' })
  chainId: string;

  @Field(() => String, { description: '0x and 40 hex digits' })
  contractAddress: string;

  @Field(() => String)
  name: string;

  @Field(() => String)
  symbol: string;

  @Field(() => Int, { description: '0 to 36' })
  decimals: number;

  @Field(() => Boolean, {
    nullable: true,
    description: "Make it the share class's primary token (its chain becomes `defaultChainId`). The first token of a share class is primary anyway.",
  })
  isPrimary?: boolean | null;
}

/** A full ERC-3643 suite (T-REX 4.1.6) the gateway deploys with its agent key. */
@InputType()
export class DeployTokenInput {
  @Field(() => ID, { description: '`SC######`' })
  shareClassId: string;

  @Field(() => String, { description: 'Numeric EVM chain id of a chain configured with an agent key' })
  chainId: string;

  @Field(() => String)
  name: string;

  @Field(() => String)
  symbol: string;

  @Field(() => Int, { description: '0 to 18 (T-REX)' })
  decimals: number;

  @Field(() => Boolean, { nullable: true, description: "Make it the share class's primary token. The first token of a share class is primary anyway." })
  isPrimary?: boolean | null;
}

/** Only the given fields change. `isPrimary: true` moves the primary flag to this token. */
@InputType()
export class UpdateTokenInput {
  @Field(() => String, { nullable: true })
  contractAddress?: string | null;

  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => String, { nullable: true })
  symbol?: string | null;

  @Field(() => Int, { nullable: true })
  decimals?: number | null;

  @Field(() => Boolean, { nullable: true })
  isPrimary?: boolean | null;
}

@InputType()
export class TokenFilter {
  @Field(() => ID, { nullable: true })
  shareClassId?: string | null;

  @Field(() => String, { nullable: true })
  chainId?: string | null;
}

export const TokenPage = PageOf(Token, 'TokenPage');
