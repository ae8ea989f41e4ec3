import { Field, InputType } from 'type-graphql';

/** Surface O `POST /user/register`; nullable so the service answers missing fields by name. */
@InputType()
export class RegisterUserInput {
  @Field(() => String, { nullable: true, description: 'Required' })
  email?: string;

  @Field(() => String, { nullable: true, description: 'Required' })
  name?: string;

  @Field(() => String, { nullable: true, description: "`PT######`; default: the caller's own distributor" })
  distributorId?: string;

  @Field(() => String, { nullable: true, description: "Caller's own reference, stored as externalInvestorId" })
  uniqueId?: string;
}
