import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { EpochMs } from '../../common/scalars';

/** A share class's dealing calendar; absent fields keep their stored (or default) value. */
@InputType()
export class DealingCalendarInput {
  @Field(() => String, { nullable: true, description: 'IANA time zone, e.g. `Europe/Luxembourg` (default `UTC`)' })
  timeZone?: string | null;

  @Field(() => String, { nullable: true, description: '`HH:MM`, `00:00` to `24:00` (default `24:00`, the end of the day)' })
  cutOffTime?: string | null;

  @Field(() => Int, { nullable: true, description: 'Business days, 0 to 30 (default 1)' })
  settlementLagDays?: number | null;

  @Field(() => String, { nullable: true, description: '`YYYY-MM-DD`, a business day (default 2000-01-03)' })
  anchorDate?: string | null;

  @Field(() => [String], { nullable: true, description: 'Replaces the holidays, `YYYY-MM-DD` each' })
  holidays?: string[] | null;

  @Field(() => [String], { nullable: true, description: "Replaces the allowed settlement currencies besides the share class's own" })
  settlementCurrencies?: string[] | null;
}

/** The dates placement gives an order placed at one moment (as on every order). */
@ObjectType()
export class DealingDatesView {
  @Field(() => String, { description: "`YYYY-MM-DD` in the calendar's zone" })
  dealingDate: string;

  @Field(() => EpochMs, { description: 'The cut-off of that dealing date; an order at or after it is dealt on the next one' })
  cutOffAt: Date;

  @Field(() => String, { description: '`YYYY-MM-DD`: the dealing date plus the settlement lag in business days' })
  expectedSettlementDate: string;
}

/** The next dealing dates of a share class under a calendar (stored, or a draft being edited). */
@ObjectType()
export class DealingPreview {
  @Field(() => Boolean, { description: 'Whether the share class has a calendar stored (else the defaults apply)' })
  configured: boolean;

  @Field(() => String)
  timeZone: string;

  @Field(() => String)
  cutOffTime: string;

  @Field(() => Int)
  settlementLagDays: number;

  @Field(() => String)
  anchorDate: string;

  @Field(() => [String])
  holidays: string[];

  @Field(() => [Int], { description: "The share class's dealing week (ISO weekdays, 1 Monday … 7 Sunday; set with updateShareClass)" })
  dealingWeekdays: number[];

  @Field(() => [String], { description: "The currencies an order may be placed in: the share class's own first" })
  currencies: string[];

  @Field(() => [DealingDatesView], {
    description: 'Subscriptions (`subFreq`), the first for an order placed at `from`, each next for one placed at the previous cut-off',
  })
  subscriptions: DealingDatesView[];

  @Field(() => [DealingDatesView], { description: 'Redemptions (`redFreq`), likewise' })
  redemptions: DealingDatesView[];
}
