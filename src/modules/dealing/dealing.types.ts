import { Field, InputType, Int } from 'type-graphql';

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
