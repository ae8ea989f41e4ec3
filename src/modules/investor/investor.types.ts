import { Field, InputType } from 'type-graphql';

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
