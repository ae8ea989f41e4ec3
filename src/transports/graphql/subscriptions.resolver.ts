import { withFilter } from 'graphql-subscriptions';
import { payloadText } from '../../common/payload-text';
import { Arg, Ctx, Field, FieldResolver, ID, Int, ObjectType, Resolver, Root, Subscription } from 'type-graphql';
import { recordId } from '../../common/ids';
import type { GatewayContext } from '../../access/graphql-context';
import { EpochMs } from '../../common/scalars';
import { Order, OrderFlow } from '../../modules/order/order.entity';
import { ApprovalKind, ApprovalStatus } from '../../modules/approval/approval-request.entity';
import { orderOfCorrelation } from '../../modules/settlement/order-correlation';
import { TOPICS, type DeliveryOutcomeMessage, type RelayedEvent } from '../../events/pubsub';

/*
 * Live views of the event log over graphql-ws. Ops see everything; a distributor only its own
 * orders, NAVs of share classes granted to it and its own webhooks' deliveries. Each event is
 * resolved with an EntityManager forked for that event, never one kept for the connection.
 */

@ObjectType({ description: 'An order moved to a new status (both flows, both surfaces).' })
export class OrderUpdate {
  @Field(() => ID, { description: 'Event id (`evt_…`), for de-duplication' })
  eventId: string;
  @Field(() => String)
  orderId: string;
  @Field(() => OrderFlow)
  flow: OrderFlow;
  @Field(() => String, { description: 'subscription or redemption' })
  type: string;
  @Field(() => String)
  status: string;
  @Field(() => String, { nullable: true })
  previousStatus: string | null;
  @Field(() => Int, { description: 'Per-order sequence: a higher one is newer' })
  sequence: number;
  @Field(() => String, { nullable: true, description: 'The webhook event this transition fires, if any' })
  webhookEvent: string | null;
  @Field(() => String)
  shareClassId: string;
  @Field(() => String)
  investorId: string;
  @Field(() => String)
  distributorId: string;
  @Field(() => String)
  by: string;
  @Field(() => String, { nullable: true })
  note: string | null;
  @Field(() => String, { nullable: true })
  transferHash: string | null;
  @Field(() => String, { nullable: true })
  failureReason: string | null;
  @Field(() => EpochMs)
  occurredAt: Date;
}

@ObjectType({ description: 'A NAV was published.' })
export class NavPublication {
  @Field(() => ID)
  eventId: string;
  @Field(() => String)
  shareClassId: string;
  @Field(() => String)
  entryId: string;
  @Field(() => String)
  close: string;
  @Field(() => EpochMs)
  publishedAt: Date;
}

@ObjectType({ description: 'The outcome of one webhook delivery attempt.' })
export class WebhookDeliveryOutcome {
  @Field(() => ID)
  deliveryId: string;
  @Field(() => String)
  webhookId: string;
  @Field(() => String)
  eventId: string;
  @Field(() => String)
  eventType: string;
  @Field(() => String)
  distributorId: string;
  @Field(() => Int)
  attempt: number;
  @Field(() => Int, { nullable: true })
  statusCode: number | null;
  @Field(() => Boolean)
  success: boolean;
  @Field(() => String, { nullable: true })
  error: string | null;
  @Field(() => String, { description: 'The delivery status after this attempt' })
  status: string;
  @Field(() => Int)
  latencyMs: number;
  @Field(() => EpochMs)
  attemptedAt: Date;
  @Field(() => EpochMs, { nullable: true })
  nextAttemptAt: Date | null;
  @Field(() => Boolean)
  test: boolean;
}

@ObjectType({ description: 'A chain transaction became final; what it settled (a wallet, an order) is final in the same commit.' })
export class ChainTransactionFinal {
  @Field(() => ID)
  eventId: string;
  @Field(() => ID)
  chainTransactionId: string;
  @Field(() => String)
  chainId: string;
  @Field(() => String, { description: 'What it does (`deploy.*`, `wallet.*`, `settlement.*`)' })
  purpose: string;
  @Field(() => String, { description: 'confirmed, reverted or failed' })
  status: string;
  @Field(() => String, { nullable: true })
  orderId: string | null;
  @Field(() => ID, { nullable: true, description: 'The investor wallet it registers, for `wallet.*`' })
  walletId: string | null;
  @Field(() => EpochMs)
  occurredAt: Date;
}

@ObjectType({ description: 'An approval request was made, approved, rejected, executed or failed.' })
export class ApprovalChange {
  @Field(() => ID)
  eventId: string;
  @Field(() => ID)
  requestId: string;
  @Field(() => ApprovalKind)
  kind: ApprovalKind;
  @Field(() => ApprovalStatus)
  status: ApprovalStatus;
  @Field(() => EpochMs)
  occurredAt: Date;
}

const str = payloadText;

interface OrderArgs {
  distributorId?: string | null;
  shareClassId?: string | null;
  status?: string | null;
  flow?: OrderFlow | null;
}

@Resolver(() => OrderUpdate)
export class SubscriptionResolver {
  @Subscription(() => OrderUpdate, {
    description: 'Live order transitions, in order per order. Filters are optional and combine.',
    subscribe: ({ args, context }) => {
      const ctx = context as GatewayContext;
      return withFilter(
        () => ctx.services.eventBus.iterator<RelayedEvent>([TOPICS.order]),
        (e: RelayedEvent | undefined, args?: OrderArgs) => {
          const a = args ?? {};
          if (!e?.distributorId || !ctx.access.sees(e.distributorId)) return false;
          const p = e.payload;
          if (a.distributorId && recordId(a.distributorId, 'distributor', null) !== e.distributorId) return false;
          if (a.shareClassId && a.shareClassId !== p.shareClassId) return false;
          if (a.status && a.status !== p.status) return false;
          if (a.flow && a.flow !== p.flow) return false;
          return true;
        },
      )(undefined, args as OrderArgs, ctx, undefined) as AsyncIterable<unknown>;
    },
  })
  orderUpdated(
    @Root() e: RelayedEvent,
    @Arg('distributorId', () => String, { nullable: true }) _distributorId: string | null,
    @Arg('shareClassId', () => String, { nullable: true }) _shareClassId: string | null,
    @Arg('status', () => String, { nullable: true }) _status: string | null,
    @Arg('flow', () => OrderFlow, { nullable: true }) _flow: OrderFlow | null,
  ): OrderUpdate {
    const p = e.payload;
    return {
      eventId: e.eventId,
      orderId: String(p.orderId),
      flow: p.flow as OrderFlow,
      type: String(p.type),
      status: String(p.status),
      previousStatus: str(p.previousStatus),
      sequence: Number(p.sequence),
      webhookEvent: str(p.webhookEvent),
      shareClassId: String(p.shareClassId),
      investorId: String(p.investorId),
      distributorId: String(p.distributorId),
      by: String((p.by as string | null | undefined) ?? ''),
      note: str(p.note),
      transferHash: str(p.transferHash),
      failureReason: str(p.failureReason ?? p.reason),
      occurredAt: new Date(e.occurredAt),
    };
  }

  @FieldResolver(() => Order, { nullable: true, description: 'The order as it is now (read for this event)' })
  order(@Root() u: OrderUpdate, @Ctx() ctx: GatewayContext): Promise<Order | null> {
    // A fork for this event, made only when the field is asked for: the subscription's context
    // lives as long as the socket, and most subscribers never read the order.
    return ctx.em.fork().findOne(Order, { id: u.orderId });
  }

  @Subscription(() => NavPublication, {
    description: 'NAV publications (distributors: share classes granted to them).',
    subscribe: ({ args, context }) => {
      const ctx = context as GatewayContext;
      return withFilter(
        () => ctx.services.eventBus.iterator<RelayedEvent>([TOPICS.nav]),
        async (e: RelayedEvent | undefined, a?: { shareClassId?: string | null }) => {
          if (!e) return false;
          const shareClassId = String(e.payload.shareClassId);
          if (a?.shareClassId && a.shareClassId !== shareClassId) return false;
          // A fork per event: the subscription's context lives as long as the socket.
          return ctx.access.seesShareClass(ctx.em.fork(), shareClassId);
        },
      )(undefined, args as { shareClassId?: string | null }, ctx, undefined) as AsyncIterable<unknown>;
    },
  })
  navPublished(@Root() e: RelayedEvent, @Arg('shareClassId', () => String, { nullable: true }) _shareClassId: string | null): NavPublication {
    return {
      eventId: e.eventId,
      shareClassId: String(e.payload.shareClassId),
      entryId: String(e.payload.entryId),
      close: String(e.payload.close),
      publishedAt: new Date(Number(e.payload.publishedAt)),
    };
  }

  @Subscription(() => ChainTransactionFinal, {
    description: 'Chain transactions as they become final (ops only): wallets whitelisted, tokens deployed, orders settled.',
    subscribe: ({ args, context }) => {
      const ctx = context as GatewayContext;
      ctx.access.requireOps();
      return withFilter(
        () => ctx.services.eventBus.iterator<RelayedEvent>([TOPICS.chain]),
        (e: RelayedEvent | undefined, a?: { chainId?: string | null }) => !!e && (!a?.chainId || a.chainId === e.payload.chainId),
      )(undefined, args as { chainId?: string | null }, ctx, undefined) as AsyncIterable<unknown>;
    },
  })
  chainTransactionFinal(@Root() e: RelayedEvent, @Arg('chainId', () => String, { nullable: true }) _chainId: string | null): ChainTransactionFinal {
    const p = e.payload;
    return {
      eventId: e.eventId,
      chainTransactionId: String(p.chainTransactionId),
      chainId: String(p.chainId),
      purpose: String(p.purpose),
      status: String(p.status),
      // The order a settlement intent serves, from its correlation (events logged before it carry `orderId`).
      orderId: orderOfCorrelation(str(p.correlation)) ?? str(p.orderId),
      walletId: str(p.walletId),
      occurredAt: new Date(e.occurredAt),
    };
  }

  @Subscription(() => WebhookDeliveryOutcome, {
    description: 'Outcomes of webhook delivery attempts (distributors: their own webhooks).',
    subscribe: ({ args, context }) => {
      const ctx = context as GatewayContext;
      return withFilter(
        () => ctx.services.eventBus.iterator<DeliveryOutcomeMessage>([TOPICS.delivery]),
        (m: DeliveryOutcomeMessage | undefined, a?: { webhookId?: string | null }) =>
          !!m && ctx.access.sees(m.distributorId) && (!a?.webhookId || a.webhookId === m.webhookId),
      )(undefined, args as { webhookId?: string | null }, ctx, undefined) as AsyncIterable<unknown>;
    },
  })
  webhookDeliveryOutcome(
    @Root() m: DeliveryOutcomeMessage,
    @Arg('webhookId', () => String, { nullable: true }) _webhookId: string | null,
  ): WebhookDeliveryOutcome {
    return { ...m, attemptedAt: new Date(m.attemptedAt), nextAttemptAt: m.nextAttemptAt === null ? null : new Date(m.nextAttemptAt) };
  }

  @Subscription(() => ApprovalChange, {
    description: 'Approval requests as they are made and decided (ops only), for the approvals inbox.',
    subscribe: ({ context }) => {
      (context as GatewayContext).access.requireOps();
      return (context as GatewayContext).services.eventBus.iterator<RelayedEvent>([TOPICS.approval]);
    },
  })
  approvalChanged(@Root() e: RelayedEvent): ApprovalChange {
    const p = e.payload;
    return {
      eventId: e.eventId,
      requestId: String(p.requestId),
      kind: p.kind as ApprovalKind,
      status: p.status as ApprovalStatus,
      occurredAt: new Date(e.occurredAt),
    };
  }
}
