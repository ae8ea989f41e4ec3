import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { Webhook } from './webhook.entity';

/** Fields are nullable in the schema so the service answers missing ones with the documented message. */
@InputType()
export class RegisterWebhookInput {
  @Field(() => String, { nullable: true, description: 'One of the four event names (required)' })
  event_type?: string;

  @Field(() => String, { nullable: true, description: 'HTTPS URL (required)' })
  endpoint_url?: string;

  @Field(() => String, { nullable: true, description: 'Ops only: the distributor the webhook is for (`DT######`)' })
  distributorId?: string;
}

@InputType()
export class TestWebhookInput {
  @Field(() => String, { nullable: true, description: 'Must match the registration (required)' })
  event_type?: string;

  @Field(() => String, { nullable: true, description: '`wh_…` (required)' })
  webhook_id?: string;
}

@ObjectType({ description: 'A registration with its signing secret, shown this once.' })
export class WebhookWithSecret {
  @Field(() => Webhook)
  webhook: Webhook;

  @Field(() => String, { description: '`whsec_…`: verify deliveries with it (Standard Webhooks)' })
  secret: string;
}

@ObjectType()
export class WebhookCheck {
  @Field(() => Boolean)
  exists: boolean;

  @Field(() => [String])
  event_types: string[];
}

@ObjectType()
export class WebhookTestResult {
  @Field(() => Boolean)
  success: boolean;

  @Field(() => String)
  message: string;
}

@ObjectType()
export class DeliveriesReset {
  @Field(() => Int, { description: 'Deliveries put back on the schedule' })
  count: number;
}
