import type { EntityRecord } from '../../persistence/read-record';
import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { EpochMs } from '../../common/scalars';
import type { ModuleContext } from '../../access/module-services';
import { ShareClass } from '../share-class';
import { DealingCalendar } from './dealing-calendar.entity';
import { DealingCalendarInput, DealingPreview } from './dealing.types';

@Resolver(() => ShareClass)
export class DealingResolver {
  @FieldResolver(() => DealingCalendar, {
    nullable: true,
    description: 'The dealing calendar; null: every day of its dealing week (dealingWeekdays) in UTC, cut-off at the end of the day',
  })
  async dealingCalendar(@Root() sc: ShareClass, @Ctx() ctx: ModuleContext<'dealing'>): Promise<EntityRecord<DealingCalendar> | null> {
    return (await ctx.loaders.manyBy(DealingCalendar, 'shareClass').load(sc.id))[0] ?? null;
  }

  @Query(() => DealingPreview, {
    description:
      'Ops: the next dealing dates, cut-offs and settlement dates of a share class from `from` (default now), under its calendar or, with `draft`, under the calendar `setDealingCalendar(draft)` would leave (same checks, nothing stored).',
  })
  dealingPreview(
    @Arg('shareClassId', () => ID) shareClassId: string,
    @Arg('draft', () => DealingCalendarInput, { nullable: true }) draft: DealingCalendarInput | null,
    @Arg('from', () => EpochMs, { nullable: true }) from: Date | null,
    @Arg('count', () => Int, { defaultValue: 5, description: '1 to 50' }) count: number,
    @Ctx() ctx: ModuleContext<'dealing'>,
  ): Promise<DealingPreview> {
    return ctx.services.dealing.preview(ctx, shareClassId, draft, from, count);
  }

  @Mutation(() => DealingCalendar, { description: "Ops: create or change a share class's dealing calendar; absent fields keep their value." })
  setDealingCalendar(
    @Arg('shareClassId', () => ID) shareClassId: string,
    @Arg('input', () => DealingCalendarInput) input: DealingCalendarInput,
    @Ctx() ctx: ModuleContext<'dealing'>,
  ): Promise<DealingCalendar> {
    return ctx.services.dealing.setCalendar(ctx, shareClassId, input);
  }

  @Mutation(() => DealingCalendar, { description: "Ops: add holidays (`YYYY-MM-DD`) to a share class's dealing calendar." })
  addDealingHolidays(
    @Arg('shareClassId', () => ID) shareClassId: string,
    @Arg('dates', () => [String]) dates: string[],
    @Ctx() ctx: ModuleContext<'dealing'>,
  ): Promise<DealingCalendar> {
    return ctx.services.dealing.addHolidays(ctx, shareClassId, dates);
  }

  @Mutation(() => DealingCalendar, { nullable: true, description: "Ops: remove holidays from a share class's dealing calendar (null when it has none)." })
  removeDealingHolidays(
    @Arg('shareClassId', () => ID) shareClassId: string,
    @Arg('dates', () => [String]) dates: string[],
    @Ctx() ctx: ModuleContext<'dealing'>,
  ): Promise<DealingCalendar | null> {
    return ctx.services.dealing.removeHolidays(ctx, shareClassId, dates);
  }
}
