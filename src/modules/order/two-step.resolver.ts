import type { OrderRecord } from './order.service';
import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import type { ModuleContext } from '../../access/module-services';
import { Order } from './order.entity';
import { CreateTwoStepSubscriptionInput, SupplyOutcomeInput } from './two-step.types';

/** Mutations of the R-two-step flow; REST surface R runs the same ones. */
@Resolver(() => Order)
export class TwoStepResolver {
  @Mutation(() => Order, { description: 'A priced subscription, status `created` (R-two-step).' })
  createTwoStepSubscription(
    @Arg('input', () => CreateTwoStepSubscriptionInput) input: CreateTwoStepSubscriptionInput,
    @Ctx() ctx: ModuleContext<'order'>,
  ): Promise<OrderRecord> {
    return ctx.services.twoStep.create(ctx, input);
  }

  @Mutation(() => Order, { description: 'Sends a `created` subscription to its supply-side platform: `submitted`, or an error.' })
  pushTwoStepSubscription(@Arg('orderId', () => String) orderId: string, @Ctx() ctx: ModuleContext<'order'>): Promise<Order> {
    return ctx.services.twoStep.push(ctx, orderId);
  }

  @Mutation(() => Order, { description: '`created` → `cancelled`; the note is recorded in statusHistory (required when ops cancel: it is why).' })
  cancelTwoStepSubscription(
    @Arg('orderId', () => String) orderId: string,
    @Ctx() ctx: ModuleContext<'order'>,
    @Arg('note', () => String, { nullable: true }) note?: string | null,
  ): Promise<Order> {
    return ctx.services.twoStep.cancel(ctx, orderId, note);
  }

  @Mutation(() => Order, { description: 'Ops: reflect a supply-side outcome (accepted, rejected, settled, failed) into statusHistory.' })
  recordSupplyOutcome(@Arg('input', () => SupplyOutcomeInput) input: SupplyOutcomeInput, @Ctx() ctx: ModuleContext<'order'>): Promise<Order> {
    return ctx.services.twoStep.recordSupplyOutcome(ctx, input);
  }
}
