import { Field, ID, InputType } from 'type-graphql';
import { PageOf } from '../../persistence/pagination';
import { Fund } from './fund.entity';

@InputType()
export class CreateFundInput {
  @Field(() => ID, { description: '`IS######`' })
  issuerId: string;

  @Field(() => String)
  name: string;

  @Field(() => String, { nullable: true })
  description?: string | null;
}

/** Only the given fields change; a fund never moves to another issuer. */
@InputType()
export class UpdateFundInput {
  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => String, { nullable: true, description: 'Empty clears it' })
  description?: string | null;
}

@InputType()
export class FundFilter {
  @Field(() => ID, { nullable: true, description: 'Funds of this issuer' })
  issuerId?: string | null;
}

export const FundPage = PageOf(Fund, 'FundPage');
