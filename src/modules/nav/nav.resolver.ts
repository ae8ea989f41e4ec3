import type { EntityRecord } from '../../persistence/read-record';
import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { ModuleContext } from '../../access/module-services';
import { EpochMs } from '../../common/scalars';
import { Nav } from './nav.entity';
import { PublishNavInput } from './nav.types';
import { NavStatus, PendingNav } from './nav-confirmation';

@Resolver(() => Nav)
export class NavResolver {
  @Query(() => Nav, { description: 'The latest NAV of a share class (`No NAV published` when none).' })
  liveNav(@Arg('shareClassId', () => String) shareClassId: string, @Ctx() ctx: ModuleContext<'nav'>): Promise<EntityRecord<Nav>> {
    return ctx.services.nav.live(ctx, shareClassId);
  }

  @Query(() => [Nav], { description: 'Ascending by publishedAt; both bounds give the inclusive range, otherwise the last 100.' })
  navHistory(
    @Arg('shareClassId', () => String) shareClassId: string,
    @Arg('startDate', () => EpochMs, { nullable: true }) startDate: Date | null,
    @Arg('endDate', () => EpochMs, { nullable: true }) endDate: Date | null,
    @Ctx() ctx: ModuleContext<'nav'>,
  ): Promise<EntityRecord<Nav>[]> {
    return ctx.services.nav.history(ctx, shareClassId, startDate, endDate);
  }

  @Mutation(() => Nav, {
    description:
      "Ops: publish a NAV. Within the share class's `navToleranceBps` of the previous confirmed NAV (or its first), it is confirmed and live at once; outside it, the answer is `status: pending` and a `nav_confirmation` approval request that a different principal with `approver` approves (then it is live, with its `publishedAt`) or rejects (never live).",
  })
  publishNav(@Arg('input', () => PublishNavInput) input: PublishNavInput, @Ctx() ctx: ModuleContext<'nav'>): Promise<Nav> {
    return ctx.services.nav.publish(ctx, input);
  }

  @FieldResolver(() => NavStatus, {
    description: '`pending`: only `publishNav` answers it, for a NAV outside the tolerance; every read answers confirmed NAVs',
  })
  status(@Root() nav: Nav): NavStatus {
    return nav instanceof PendingNav ? NavStatus.pending : NavStatus.confirmed;
  }

  @FieldResolver(() => ID, {
    nullable: true,
    description: 'The `nav_confirmation` approval request that holds it (pending) or confirmed it; null when confirmed at once',
  })
  approvalRequestId(@Root() nav: Nav): string | null {
    return nav instanceof PendingNav ? nav.approvalRequestId : (nav.confirmationRequestId ?? null);
  }

  @FieldResolver(() => String)
  shareClassId(@Root() nav: Nav): string {
    return nav.shareClass.id;
  }
}
