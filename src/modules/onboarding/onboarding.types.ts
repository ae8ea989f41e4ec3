import { Field, ObjectType } from 'type-graphql';

/** One thing the first order needs, and whether it is there. */
@ObjectType()
export class OnboardingItem {
  @Field(() => String, { description: 'Stable key, e.g. `primaryToken`, `host`, `grant:SC000001`' })
  key: string;

  @Field(() => String, { description: 'What is needed, in words' })
  label: string;

  @Field(() => Boolean)
  done: boolean;

  @Field(() => Boolean, { description: 'Whether the first order cannot succeed without it (else advisory)' })
  blocking: boolean;

  @Field(() => String, { nullable: true, description: 'While missing: the message the gateway answers an order for it (the same rule placement applies)' })
  refusal: string | null;

  @Field(() => String, { nullable: true, description: 'A share class (`SC…`) or distributor (`DT…`) the item is about, for a link' })
  subject: string | null;
}

/** What is still missing before the first order can succeed. */
@ObjectType()
export class Onboarding {
  @Field(() => Boolean, { description: 'No blocking item is missing' })
  ready: boolean;

  @Field(() => [OnboardingItem])
  items: OnboardingItem[];
}
