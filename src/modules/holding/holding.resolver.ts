import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import type { ModuleContext } from '../../access/module-services';
import { HoldingView } from './holding.types';

/** Holdings are read here; an adjustment is a four-eyes request (`requestHoldingAdjustment`, src/modules/approval). */
@Resolver(() => HoldingView)
export class HoldingResolver {
  @Query(() => HoldingView, { description: "An investor's tokens of a share class (`userId` `US######`, or `IN######` for ops and surface R)." })
  holding(
    @Arg('userId', () => String) userId: string,
    @Arg('shareClassId', () => String) shareClassId: string,
    @Ctx() ctx: ModuleContext<'holding'>,
  ): Promise<HoldingView> {
    return ctx.services.holding.get(ctx, userId, shareClassId);
  }
}
