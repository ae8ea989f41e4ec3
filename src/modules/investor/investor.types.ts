import { Field, ID, InputType } from 'type-graphql';
import { PageOf } from '../../persistence/pagination';
import { Investor } from './investor.entity';

/** Fields are nullable in the schema so the service answers missing ones with the documented message. */
@InputType()
export class RegisterInvestorInput {
  @Field(() => String, { nullable: true, description: '`DT######` (required)' })
  distributorId?: string;

  @Field(() => String, { nullable: true, description: "Partner's own user id (required)" })
  externalInvestorId?: string;

  @Field(() => String, { nullable: true })
  email?: string;

  @Field(() => String, { nullable: true, description: 'ISO country code' })
  countryCode?: string;
}

@InputType()
export class InvestorFilter {
  @Field(() => ID, { nullable: true, description: '`DT######` (or `PT######`)' })
  distributorId?: string | null;

  @Field(() => String, { nullable: true, description: 'Exact address, case-insensitive' })
  email?: string | null;

  @Field(() => String, { nullable: true })
  externalInvestorId?: string | null;

  @Field(() => String, { nullable: true })
  status?: string | null;
}

@InputType()
export class InvestorShareClassInput {
  @Field(() => ID, { description: '`IN######` (or `US######`)' })
  investorId: string;

  @Field(() => ID)
  shareClassId: string;
}

@InputType()
export class AddInvestorWalletInput {
  @Field(() => ID)
  investorId: string;

  @Field(() => String, { description: 'Numeric EVM chain id' })
  chainId: string;

  @Field(() => String)
  address: string;

  @Field(() => Boolean, { nullable: true, description: 'Whitelist at once (identity already verified); default false: `pending`' })
  whitelisted?: boolean | null;
}

@InputType()
export class InvestorWalletRef {
  @Field(() => ID)
  investorId: string;

  @Field(() => String, { description: 'The chain of the wallet in use' })
  chainId: string;
}

@InputType()
export class RemoveInvestorWalletInput {
  @Field(() => ID)
  investorId: string;

  @Field(() => String)
  chainId: string;

  @Field(() => String, { description: 'Why it leaves the whitelist, e.g. `compromised`' })
  reason: string;
}

@InputType()
export class RecoverInvestorWalletInput {
  @Field(() => ID)
  investorId: string;

  @Field(() => String)
  chainId: string;

  @Field(() => String, { description: "The investor's new wallet: it receives the lost wallet's tokens" })
  newAddress: string;

  @Field(() => String, { description: 'Why, e.g. `key lost`' })
  reason: string;
}

export const InvestorPage = PageOf(Investor, 'InvestorPage');
