import type { Projected } from '../../persistence/read-record';
import type { OrderRecord } from './order.service';
import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { shownId } from '../../common/ids';
import type { ModuleContext } from '../../access/module-services';
import { Reads } from '../../persistence/field-reads';
import { Order, OrderType } from './order.entity';
import { CancelOrderResult, OneStepRedemptionInput, OneStepSubscriptionInput } from './one-step.types';

/**
 * The one-step flow (R-one-step and surface O): placement, reads and cancellation for
 * distributors; accept, reject, settle and fail for the ops console.
 */
@Resolver(() => Order)
export class OneStepOrderResolver {
  @Mutation(() => Order, { description: 'R-one-step / surface O `POST /orders/subscribe` (with `amount`): a `pending` subscription.' })
  placeOneStepSubscription(
    @Arg('input', () => OneStepSubscriptionInput) input: OneStepSubscriptionInput,
    @Ctx() ctx: ModuleContext<'order'>,
  ): Promise<OrderRecord> {
    return ctx.services.oneStepOrder.placeSubscription(ctx, input);
  }

  @Mutation(() => Order, { description: '`POST /orders/redeem`: a `pending` redemption of tokens.' })
  placeOneStepRedemption(@Arg('input', () => OneStepRedemptionInput) input: OneStepRedemptionInput, @Ctx() ctx: ModuleContext<'order'>): Promise<OrderRecord> {
    return ctx.services.oneStepOrder.placeRedemption(ctx, input);
  }

  @Query(() => Order, { description: 'A one-step order (`ord_…`) the caller may see.' })
  oneStepOrder(@Arg('id', () => ID) id: string, @Ctx() ctx: ModuleContext<'order'>): Promise<Order> {
    return ctx.services.oneStepOrder.get(ctx, id);
  }

  @Mutation(() => CancelOrderResult, { description: '`POST /orders/cancel/:orderId`: only a `pending` order can be cancelled.' })
  cancelOneStepOrder(
    @Arg('orderId', () => ID) orderId: string,
    @Ctx() ctx: ModuleContext<'order'>,
    @Arg('reason', () => String, { nullable: true, description: 'Why: required when ops cancel (recorded in statusHistory); optional for the distributor' })
    reason?: string | null,
  ): Promise<CancelOrderResult> {
    return ctx.services.oneStepOrder.cancel(ctx, orderId, reason);
  }

  @Mutation(() => Order, { description: 'Ops: accept a pending one-step order, priced at the live NAV (event `order.accepted`).' })
  acceptOneStepOrder(
    @Arg('orderId', () => ID) orderId: string,
    @Arg('note', () => String, { nullable: true }) note: string | null,
    @Ctx() ctx: ModuleContext<'order'>,
  ): Promise<Order> {
    return ctx.services.oneStepOrder.accept(ctx, orderId, note);
  }

  @Mutation(() => Order, { description: 'Ops: decline a pending one-step order (event `order.rejected`).' })
  rejectOneStepOrder(
    @Arg('orderId', () => ID) orderId: string,
    @Arg('reason', () => String, { description: 'Why, sent to the distributor with `order.rejected`; blank is refused' }) reason: string,
    @Ctx() ctx: ModuleContext<'order'>,
  ): Promise<Order> {
    return ctx.services.oneStepOrder.reject(ctx, orderId, reason);
  }

  @Mutation(() => Order, {
    description:
      'Ops: settle an accepted order. Without a hash, on a chain the gateway has a key for: its tokens are minted (subscription) or burned (redemption) on chain and the order settles (event `token.transfer_completed`) or fails (`token.transfer_failed`) at the confirmation depth. With a hash: the transfer completed elsewhere (checked on chain when readable); fails instead when the wallet is not whitelisted.',
  })
  settleOneStepOrder(
    @Arg('orderId', () => ID) orderId: string,
    @Arg('transferHash', () => String, {
      nullable: true,
      description: 'Settled elsewhere: the transaction, checked on chain when the chain is readable. Omitted: the gateway mints or burns on chain itself.',
    })
    transferHash: string | null,
    @Ctx() ctx: ModuleContext<'order'>,
  ): Promise<Order> {
    return ctx.services.oneStepSettlement.settle(ctx, orderId, transferHash);
  }

  @Mutation(() => Order, { description: 'Ops: the token transfer of an accepted order failed (event `token.transfer_failed`); holdings unchanged.' })
  failOneStepOrder(
    @Arg('orderId', () => ID) orderId: string,
    @Arg('reason', () => String) reason: string,
    @Arg('transferHash', () => String, { nullable: true }) transferHash: string | null,
    @Ctx() ctx: ModuleContext<'order'>,
  ): Promise<Order> {
    return ctx.services.oneStepSettlement.fail(ctx, orderId, reason, transferHash);
  }

  // distributorId, investorId and shareClassId are the Order type's own (order.resolver.ts).
  @FieldResolver(() => String, { description: 'The distributor on surface O: `PT######`' })
  @Reads(Order, 'distributor')
  partnerId(@Root() order: Projected<Order, 'distributor'>): string {
    return shownId(order.distributor.id, 'distributor', 'O');
  }

  @FieldResolver(() => String, { description: 'The investor on surface O: `US######`' })
  @Reads(Order, 'investor')
  userId(@Root() order: Projected<Order, 'investor'>): string {
    return shownId(order.investor.id, 'investor', 'O');
  }

  @FieldResolver(() => String, { description: 'One-step `type`: `subscribe` or `redeem`' })
  @Reads(Order, 'type')
  oneStepType(@Root() order: Projected<Order, 'type'>): string {
    return order.type === OrderType.subscription ? 'subscribe' : 'redeem';
  }
}
