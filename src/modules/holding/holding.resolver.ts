import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { GatewayContext } from '../../transports/graphql/context';
import { HoldingAdjustmentInput, HoldingView } from './holding.types';

@Resolver(() => HoldingView)
export class HoldingResolver {
  @Query(() => HoldingView, { description: "An investor's tokens of a share class (`userId` `US######`, or `IN######` for ops and surface R)." })
  holding(@Arg('userId', () => String) userId: string, @Arg('shareClassId', () => String) shareClassId: string, @Ctx() ctx: GatewayContext): Promise<HoldingView> {
    return ctx.services.holding.get(ctx, userId, shareClassId);
  }

  @Mutation(() => HoldingView, { description: 'Ops: book a holding adjustment (a transfer in from a previous register, a correction) with its reason, as a lot with its date; audited, with a `holding.changed` event.' })
  adjustHolding(@Arg('input', () => HoldingAdjustmentInput) input: HoldingAdjustmentInput, @Ctx() ctx: GatewayContext): Promise<HoldingView> {
    return ctx.services.holding.adjust(ctx, input);
  }
}
