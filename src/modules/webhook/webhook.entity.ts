import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property, Unique, type Opt } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Audited } from '../../persistence/audited.entity';
import { EpochMs } from '../../common/scalars';
import { Distributor } from '../distributor';
import { bigintColumn } from '../../persistence/bigint-column';

export enum WebhookStatus {
  active = 'active',
  /** No more deliveries: the endpoint answered 410 Gone, or ops disabled it. */
  disabled = 'disabled',
}
registerEnumType(WebhookStatus, { name: 'WebhookStatus' });

/**
 * A registration `wh_…`: one event type, one HTTPS endpoint, owned by the distributor that
 * registered it. Its signing secret is kept encrypted (AES-256-GCM, key from config) and never
 * gets a GraphQL field; it is shown once, at registration or rotation.
 */
@ObjectType()
@Entity({ tableName: 'webhook' })
@Index({ properties: ['distributor', 'eventType', 'status'] })
@Index({ properties: ['distributor', 'endpointUrl'] })
// One active registration per distributor, event type and URL, even when two arrive at once.
@Unique({
  name: 'webhook_active_registration_unique',
  expression: `create unique index "webhook_active_registration_unique" on "webhook" ("distributor_id", "event_type", "endpoint_url") where "status" = 'active'`,
})
export class Webhook extends Audited {
  @Field(() => ID, { description: '`wh_…`' })
  @PrimaryKey({ type: 'text' })
  id: string;

  @ManyToOne(() => Distributor, { deleteRule: 'restrict' })
  distributor: Distributor;

  @Field(() => String, { description: 'One of order.accepted, order.rejected, token.transfer_completed, token.transfer_failed' })
  @Property({ type: 'text' })
  eventType: string;

  @Field(() => String)
  @Property({ type: 'text' })
  endpointUrl: string;

  @Field(() => WebhookStatus)
  @Enum({ items: () => WebhookStatus, default: WebhookStatus.active })
  status: Opt<WebhookStatus> = WebhookStatus.active;

  @Field(() => String, { nullable: true, description: 'Why the webhook was disabled' })
  @Property({ type: 'text', nullable: true })
  disabledReason?: string;

  /** The current `whsec_…` secret, encrypted. */
  @Property({ type: 'text', hidden: true })
  secretCipher: string;

  /** The secret before the last rotation, still signing until `previousSecretUntil`. */
  @Property({ type: 'text', nullable: true, hidden: true })
  previousSecretCipher?: string;

  @Field(() => EpochMs, { nullable: true, description: 'Until when deliveries are also signed with the previous secret' })
  @Property({ type: 'datetime', length: 3, nullable: true })
  previousSecretUntil?: Date;
}

export enum DeliveryStatus {
  /** Waiting for its next attempt at `nextAttemptAt`. */
  pending = 'pending',
  /** Claimed by a worker until `leaseUntil`; after that it is claimable again (the worker died). */
  in_flight = 'in_flight',
  succeeded = 'succeeded',
  /** The schedule ran out, or the endpoint was disabled: no more attempts unless ops recover it. */
  dead = 'dead',
}
registerEnumType(DeliveryStatus, { name: 'WebhookDeliveryStatus' });

/**
 * One event to one webhook: a durable job. Created by the relay from the committed event row,
 * at most once per (webhook, event) by a unique key. The body is fixed at creation, so every
 * retry sends the same bytes under the same `webhook-id`.
 */
@ObjectType()
@Entity({ tableName: 'webhook_delivery' })
@Unique({ properties: ['webhook', 'eventId'] })
@Index({ properties: ['status', 'nextAttemptAt'] })
@Index({ properties: ['webhook', 'createdAt'] })
export class WebhookDelivery {
  /** Exposed as a string by its resolver (a bigint). */
  @PrimaryKey({ type: bigintColumn(), autoincrement: true })
  id: Opt<string>;

  @ManyToOne(() => Webhook, { deleteRule: 'cascade' })
  webhook: Webhook;

  @Field(() => String, { description: 'The event id, sent as `webhook-id` on every attempt' })
  @Property({ type: 'text' })
  eventId: string;

  @Field(() => String)
  @Property({ type: 'text' })
  eventType: string;

  @Property({ type: 'text' })
  distributorId: string;

  /** The exact JSON body sent: `{"event_type": …, "data": {…}}`. */
  @Field(() => String, { description: 'The JSON body sent on every attempt' })
  @Property({ type: 'text' })
  body: string;

  @Field(() => Boolean)
  @Property({ type: 'boolean', default: false })
  test: Opt<boolean> = false;

  @Field(() => DeliveryStatus)
  @Enum({ items: () => DeliveryStatus, default: DeliveryStatus.pending })
  status: Opt<DeliveryStatus> = DeliveryStatus.pending;

  @Field(() => Int, { description: 'Attempts made so far' })
  @Property({ type: 'integer', default: 0 })
  attempts: Opt<number> = 0;

  /** Position in the retry schedule; reset when ops redeliver or recover. */
  @Property({ type: 'integer', default: 0 })
  scheduleStep: Opt<number> = 0;

  @Field(() => EpochMs)
  @Property({ type: 'datetime', length: 3 })
  nextAttemptAt: Date;

  @Property({ type: 'datetime', length: 3, nullable: true })
  leaseUntil?: Date;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  lastError?: string;

  @Field(() => EpochMs)
  @Property({ type: 'datetime', length: 3 })
  createdAt: Date;

  @Field(() => EpochMs, { nullable: true })
  @Property({ type: 'datetime', length: 3, nullable: true })
  completedAt?: Date;
}

/** One HTTP attempt of a delivery: what came back and how long it took. */
@ObjectType()
@Entity({ tableName: 'webhook_attempt' })
@Index({ properties: ['delivery', 'number'] })
export class WebhookAttempt {
  /** Exposed as a string by its resolver (a bigint). */
  @PrimaryKey({ type: bigintColumn(), autoincrement: true })
  id: Opt<string>;

  @ManyToOne(() => WebhookDelivery, { deleteRule: 'cascade' })
  delivery: WebhookDelivery;

  @Field(() => Int)
  @Property({ type: 'integer' })
  number: number;

  @Field(() => EpochMs)
  @Property({ type: 'datetime', length: 3 })
  attemptedAt: Date;

  @Field(() => Int, { nullable: true, description: 'HTTP status; null when no response came' })
  @Property({ type: 'integer', nullable: true })
  statusCode?: number;

  @Field(() => Int)
  @Property({ type: 'integer' })
  latencyMs: number;

  @Field(() => Boolean)
  @Property({ type: 'boolean' })
  success: boolean;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  error?: string;
}
