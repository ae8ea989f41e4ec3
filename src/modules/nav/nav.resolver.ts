import type { EntityRecord } from '../../persistence/read-record';
import { Arg, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GatewayContext } from '../../access/graphql-context';
import { EpochMs } from '../../common/scalars';
import { Nav } from './nav.entity';
import { PublishNavInput } from './nav.types';

@Resolver(() => Nav)
export class NavResolver {
  @Query(() => Nav, { description: 'The latest NAV of a share class (`No NAV published` when none).' })
  liveNav(@Arg('shareClassId', () => String) shareClassId: string, @Ctx() ctx: GatewayContext): Promise<EntityRecord<Nav>> {
    return ctx.services.nav.live(ctx, shareClassId);
  }

  @Query(() => [Nav], { description: 'Ascending by publishedAt; both bounds give the inclusive range, otherwise the last 100.' })
  navHistory(
    @Arg('shareClassId', () => String) shareClassId: string,
    @Arg('startDate', () => EpochMs, { nullable: true }) startDate: Date | null,
    @Arg('endDate', () => EpochMs, { nullable: true }) endDate: Date | null,
    @Ctx() ctx: GatewayContext,
  ): Promise<EntityRecord<Nav>[]> {
    return ctx.services.nav.history(ctx, shareClassId, startDate, endDate);
  }

  @Mutation(() => Nav, { description: 'Ops: publish a NAV; it is live at once.' })
  publishNav(@Arg('input', () => PublishNavInput) input: PublishNavInput, @Ctx() ctx: GatewayContext): Promise<Nav> {
    return ctx.services.nav.publish(ctx, input);
  }

  @FieldResolver(() => String)
  shareClassId(@Root() nav: Nav): string {
    return nav.shareClass.id;
  }
}
