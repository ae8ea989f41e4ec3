import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import type { GatewayContext } from '../../access/graphql-context';
import { HoldingView } from './holding.types';

/** Holdings are read here; an adjustment is a four-eyes request (`requestHoldingAdjustment`, src/modules/approval). */
@Resolver(() => HoldingView)
export class HoldingResolver {
  @Query(() => HoldingView, { description: "An investor's tokens of a share class (`userId` `US######`, or `IN######` for ops and surface R)." })
  holding(
    @Arg('userId', () => String) userId: string,
    @Arg('shareClassId', () => String) shareClassId: string,
    @Ctx() ctx: GatewayContext,
  ): Promise<HoldingView> {
    return ctx.services.holding.get(ctx, userId, shareClassId);
  }
}
