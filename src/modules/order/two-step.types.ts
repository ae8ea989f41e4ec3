import { Field, InputType, registerEnumType } from 'type-graphql';
import { DecimalScalar } from '../../common/scalars';

/** `POST /orders/subscribe` (R-two-step). Nullable so the service answers with the documented messages. */
@InputType()
export class CreateTwoStepSubscriptionInput {
  @Field(() => String, { nullable: true, description: '`DT######` (required)' })
  distributorId?: string | null;

  @Field(() => String, { nullable: true, description: '`IN######` (required)' })
  investorId?: string | null;

  @Field(() => String, { nullable: true, description: '`SC######` (required)' })
  shareClassId?: string | null;

  @Field(() => DecimalScalar, { nullable: true, description: 'Fiat amount, >= 0 (required)' })
  amountSubscription?: string | null;

  @Field(() => String, { nullable: true, description: 'Default: the share class currency' })
  currency?: string | null;

  @Field(() => String, { nullable: true, description: 'Caller correlation id, stored verbatim' })
  externalRef?: string | null;
}

export enum SupplyOutcome {
  accepted = 'accepted',
  rejected = 'rejected',
  settled = 'settled',
  failed = 'failed',
}
registerEnumType(SupplyOutcome, {
  name: 'SupplyOutcome',
  description: 'What the supply-side platform reports after `submitted`: accepted | rejected, then settled | failed.',
});

/** Ops: reflect a supply-side outcome into the order's statusHistory. */
@InputType()
export class SupplyOutcomeInput {
  @Field(() => String, { description: '`OR######`' })
  orderId: string;

  @Field(() => SupplyOutcome)
  outcome: SupplyOutcome;

  @Field(() => String, { nullable: true, description: 'Recorded in statusHistory' })
  note?: string | null;

  @Field(() => String, { nullable: true, description: 'Why it was rejected or failed' })
  reason?: string | null;

  @Field(() => String, { nullable: true, description: 'On-chain transfer of a settlement or failure' })
  transferHash?: string | null;
}
