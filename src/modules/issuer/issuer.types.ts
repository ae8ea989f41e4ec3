import { Field, InputType } from 'type-graphql';
import { PageOf } from '../../persistence/pagination';
import { Issuer } from './issuer.entity';

@InputType()
export class CreateIssuerInput {
  @Field(() => String)
  name: string;

  @Field(() => String, { nullable: true, description: 'Legal entity identifier (20 characters)' })
  lei?: string | null;

  @Field(() => String, { nullable: true })
  jurisdiction?: string | null;
}

/** Only the fields given change; an empty string clears an optional field. */
@InputType()
export class UpdateIssuerInput {
  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => String, { nullable: true })
  lei?: string | null;

  @Field(() => String, { nullable: true })
  jurisdiction?: string | null;
}

@InputType()
export class IssuerFilter {
  @Field(() => String, { nullable: true, description: 'Case-insensitive substring of the name' })
  nameContains?: string | null;
}

export const IssuerPage = PageOf(Issuer, 'IssuerPage');
