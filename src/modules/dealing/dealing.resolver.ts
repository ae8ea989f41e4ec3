import { Arg, Ctx, FieldResolver, ID, Mutation, Resolver, Root } from 'type-graphql';
import type { GatewayContext } from '../../graphql/context';
import { ShareClass } from '../share-class/share-class.entity';
import { DealingCalendar } from './dealing-calendar.entity';
import { DealingCalendarInput } from './dealing.types';

@Resolver(() => ShareClass)
export class DealingResolver {
  @FieldResolver(() => DealingCalendar, { nullable: true, description: 'The dealing calendar; null: every weekday in UTC, cut-off at the end of the day' })
  async dealingCalendar(@Root() sc: ShareClass, @Ctx() ctx: GatewayContext): Promise<DealingCalendar | null> {
    return (await ctx.loaders.manyBy(DealingCalendar, 'shareClass').load(sc.id))[0] ?? null;
  }

  @Mutation(() => DealingCalendar, { description: "Ops: create or change a share class's dealing calendar; absent fields keep their value." })
  setDealingCalendar(@Arg('shareClassId', () => ID) shareClassId: string, @Arg('input', () => DealingCalendarInput) input: DealingCalendarInput, @Ctx() ctx: GatewayContext): Promise<DealingCalendar> {
    return ctx.services.dealing.setCalendar(ctx, shareClassId, input);
  }

  @Mutation(() => DealingCalendar, { description: "Ops: add holidays (`YYYY-MM-DD`) to a share class's dealing calendar." })
  addDealingHolidays(@Arg('shareClassId', () => ID) shareClassId: string, @Arg('dates', () => [String]) dates: string[], @Ctx() ctx: GatewayContext): Promise<DealingCalendar> {
    return ctx.services.dealing.addHolidays(ctx, shareClassId, dates);
  }

  @Mutation(() => DealingCalendar, { nullable: true, description: "Ops: remove holidays from a share class's dealing calendar (null when it has none)." })
  removeDealingHolidays(@Arg('shareClassId', () => ID) shareClassId: string, @Arg('dates', () => [String]) dates: string[], @Ctx() ctx: GatewayContext): Promise<DealingCalendar | null> {
    return ctx.services.dealing.removeHolidays(ctx, shareClassId, dates);
  }
}
