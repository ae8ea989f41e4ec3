import { Collection, Entity, Enum, Index, ManyToOne, OneToMany, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Audited } from '../../persistence/audited.entity';
import { DECIMAL_COLUMN } from '../../common/money';
import { DecimalScalar, EpochMs } from '../../common/scalars';
import { Distributor } from '../distributor';
import { Investor } from '../investor';
import { ShareClass } from '../share-class';
import { currentPrincipal } from '../../common/request-scope';
import { bigintColumn } from '../../persistence/bigint-column';

export enum OrderFlow {
  /** R-two-step: created, then pushed to the supply-side platform. `OR######`. */
  two_step = 'two_step',
  /** R-one-step and surface O: placed `pending`, decided out-of-band. `ord_…`. */
  one_step = 'one_step',
}
registerEnumType(OrderFlow, { name: 'OrderFlow' });

export enum OrderType {
  subscription = 'subscription',
  redemption = 'redemption',
}
registerEnumType(OrderType, { name: 'OrderType' });

/** Which description the order was placed through; it decides the ids its responses show. */
export enum OrderSurface {
  R = 'R',
  O = 'O',
}
registerEnumType(OrderSurface, { name: 'OrderSurface' });

/**
 * One order book for both flows and both surfaces, so the ops console sees one book. Columns a
 * flow does not use stay null. Status values per flow live in the flow's state machine.
 */
@ObjectType()
@Entity({ tableName: 'order' })
@Index({ properties: ['distributor', 'createdAt', 'id'] })
@Index({ properties: ['investor', 'createdAt', 'id'] })
@Index({ properties: ['shareClass', 'createdAt', 'id'] })
@Index({ properties: ['distributor', 'externalRef'] })
// A distributor's or an investor's orders in one status, newest first (the subscription lists'
// `?status=`): without it an investor's list filtered every order the investor ever placed.
@Index({ properties: ['distributor', 'status', 'createdAt', 'id'] })
@Index({ properties: ['investor', 'status', 'createdAt', 'id'] })
// A holding's open redemptions, summed under its lock by every redemption (open-orders.ts):
// only those rows, however many orders the investor has. The condition is
// OPEN_REDEMPTION_CONDITION's; the plan test (test/performance/hot-query-plans.test.ts) fails if
// the two part.
@Index({
  name: 'order_open_redemption_index',
  expression: `create index "order_open_redemption_index" on "order" ("investor_id", "share_class_id") where "flow" = 'one_step' and "type" = 'redemption' and "status" in ('pending', 'accepted')`,
})
export class Order extends Audited {
  @Field(() => ID, { description: '`OR######` (two-step) or `ord_…` (one-step)' })
  @PrimaryKey({ type: 'text' })
  id: string;

  @Field(() => OrderFlow)
  @Enum({ items: () => OrderFlow })
  flow: OrderFlow;

  @Field(() => OrderSurface)
  @Enum({ items: () => OrderSurface })
  surface: OrderSurface;

  @Field(() => OrderType)
  @Enum({ items: () => OrderType })
  type: OrderType;

  @Field(() => String)
  @Property({ type: 'text' })
  status: string;

  @ManyToOne(() => Distributor, { deleteRule: 'restrict' })
  distributor: Distributor;

  @ManyToOne(() => Investor, { deleteRule: 'restrict' })
  investor: Investor;

  @ManyToOne(() => ShareClass, { deleteRule: 'restrict' })
  shareClass: ShareClass;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  currency?: string;

  @Field(() => DecimalScalar, { nullable: true, description: 'Fiat amount of a subscription' })
  @Property({ type: 'decimal', ...DECIMAL_COLUMN, nullable: true })
  amount?: string;

  @Field(() => DecimalScalar, { nullable: true, description: 'Tokens of a redemption' })
  @Property({ type: 'decimal', ...DECIMAL_COLUMN, nullable: true })
  tokenCount?: string;

  @Field(() => Int, { nullable: true, description: 'Subscription fee in bps, copied from the share class at placement' })
  @Property({ type: 'integer', nullable: true })
  feesSubBps?: number;

  @Field(() => Int, { nullable: true, description: 'Redemption fee in bps, copied from the share class at placement' })
  @Property({ type: 'integer', nullable: true })
  feesRedBps?: number;

  @Field(() => DecimalScalar, {
    nullable: true,
    description:
      'Subscription: amount × feesSubBps / 10000, on top of the amount. Redemption, once priced: tokens × NAV × feesRedBps / 10000, kept from the proceeds',
  })
  @Property({ type: 'decimal', ...DECIMAL_COLUMN, nullable: true })
  amountFeesTotal?: string;

  @Field(() => DecimalScalar, { nullable: true, description: 'Subscription: amount + amountFeesTotal, what the investor pays' })
  @Property({ type: 'decimal', ...DECIMAL_COLUMN, nullable: true })
  amountPayable?: string;

  @Field(() => DecimalScalar, { nullable: true, description: 'NAV used for pricing; null when none was live' })
  @Property({ type: 'decimal', ...DECIMAL_COLUMN, nullable: true })
  nav?: string;

  @Field(() => EpochMs, { nullable: true })
  @Property({ type: 'datetime', length: 3, nullable: true })
  navPublishedAt?: Date;

  @Field(() => DecimalScalar, { nullable: true })
  @Property({ type: 'decimal', ...DECIMAL_COLUMN, nullable: true })
  amountTokensEstimated?: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  deliveryMode?: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  deliveryWallet?: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  chainId?: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  walletAddress?: string;

  @Field(() => String, { nullable: true, description: 'Caller correlation id, stored verbatim' })
  @Property({ type: 'text', nullable: true })
  externalRef?: string;

  /** Dealing date, `YYYY-MM-DD` in the share class's dealing zone, fixed at placement (src/modules/dealing). */
  @Field(() => String, { nullable: true, description: "Dealing date `YYYY-MM-DD` in the share class's dealing zone" })
  @Index()
  @Property({ type: 'date', nullable: true })
  dealingDate?: string;

  @Field(() => EpochMs, { nullable: true, description: 'Cut-off of the dealing date' })
  @Property({ type: 'datetime', length: 3, nullable: true })
  cutOffAt?: Date;

  @Field(() => String, { nullable: true, description: 'Expected settlement date `YYYY-MM-DD`: the dealing date plus the settlement lag in business days' })
  @Index()
  @Property({ type: 'date', nullable: true })
  expectedSettlementDate?: string;

  /** `{ <provider>: { orderReference, submittedAt, raw: { request, response } } }` once pushed. */
  @Property({ type: 'json', nullable: true })
  supplyRefs?: Record<string, unknown>;

  @Field(() => DecimalScalar, { nullable: true, description: 'NAV applied at acceptance' })
  @Property({ type: 'decimal', ...DECIMAL_COLUMN, nullable: true })
  settlementNav?: string;

  @Field(() => DecimalScalar, { nullable: true, description: 'Tokens minted (subscription) or burned (redemption)' })
  @Property({ type: 'decimal', ...DECIMAL_COLUMN, nullable: true })
  settlementTokens?: string;

  @Field(() => DecimalScalar, {
    nullable: true,
    description: 'Subscription: the amount invested. Redemption: the proceeds paid out, tokens × NAV less amountFeesTotal',
  })
  @Property({ type: 'decimal', ...DECIMAL_COLUMN, nullable: true })
  settlementAmount?: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  transferHash?: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  failureReason?: string;

  /**
   * Push claim of the two-step flow (src/modules/order/two-step.service.ts): set by one
   * conditional UPDATE while a push talks to the supply-side platform, so exactly one pusher
   * calls the provider and a racing push or cancel waits for its outcome. Not a status: the order
   * stays `created` until the outcome is recorded. Expires after the lease (a crashed pusher).
   */
  @Property({ type: 'text', nullable: true })
  pushClaim?: string | null;

  @Property({ type: 'datetime', length: 3, nullable: true })
  pushClaimedAt?: Date | null;

  /** Per-order sequence of its events, so receivers can drop stale ones. */
  @Field(() => Int)
  @Property({ type: 'integer', default: 0 })
  eventSeq: Opt<number> = 0;

  @OneToMany(() => OrderStatusEntry, (e) => e.order, { orderBy: { at: 'asc', id: 'asc' } })
  history = new Collection<OrderStatusEntry>(this);
}

/** One transition of an order; the order's `statusHistory` is keyed by `at` in epoch ms. */
@ObjectType()
@Entity({ tableName: 'order_status_entry' })
@Index({ properties: ['order', 'at'] })
export class OrderStatusEntry {
  @PrimaryKey({ type: bigintColumn(), autoincrement: true })
  id: Opt<string>;

  @ManyToOne(() => Order, { deleteRule: 'cascade' })
  order: Order;

  @Field(() => EpochMs)
  @Property({ type: 'datetime', length: 3 })
  at: Date;

  @Field(() => String)
  @Property({ type: 'text' })
  status: string;

  /** What the description shows: the caller's `x-actor` or the door's default (`Network`, `system`). */
  @Field(() => String)
  @Property({ type: 'text' })
  by: string;

  /** The principal that authenticated the move (src/common/request-scope.ts); `by` is only its note. */
  @Property({ type: 'text', nullable: true, onCreate: () => currentPrincipal() })
  byPrincipal?: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  note?: string;
}
