import { Entity, ManyToOne, Property, type Opt } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { Audited } from '../../persistence/audited.entity';
import { ShareClass } from '../share-class';

/**
 * The dealing calendar of one share class, provisioned by ops (`setDealingCalendar`,
 * `addDealingHolidays`, `removeDealingHolidays`). A share class without one deals every day of its
 * dealing week (`dealingWeekdays`, Monday to Friday by default) in UTC with the cut-off at the end
 * of the day (DEFAULT_CALENDAR). The frequencies and the cut-off day offset are the share class's
 * documented `subRedemption` fields.
 */
@ObjectType()
@Entity({ tableName: 'dealing_calendar' })
export class DealingCalendar extends Audited {
  @ManyToOne(() => ShareClass, { primary: true, deleteRule: 'cascade' })
  shareClass: ShareClass;

  @Field(() => String, { description: 'IANA time zone of the dates and the cut-off time, e.g. `Europe/Luxembourg`' })
  @Property({ type: 'text', default: 'UTC' })
  timeZone: Opt<string> = 'UTC';

  @Field(() => String, { description: 'Cut-off time of day `HH:MM` in the zone; `24:00` is the end of the day' })
  @Property({ type: 'text', default: '24:00' })
  cutOffTime: Opt<string> = '24:00';

  @Field(() => Int, { description: 'Business days from the dealing date to the expected settlement (default 1)' })
  @Property({ type: 'integer', default: 1 })
  settlementLagDays: Opt<number> = 1;

  @Field(() => String, { description: 'First dealing day of an every-N-business-days cycle (`subFreq`/`redFreq` > 1), `YYYY-MM-DD`' })
  @Property({ type: 'text', default: '2000-01-03' })
  anchorDate: Opt<string> = '2000-01-03';

  @Field(() => [String], { description: 'Non-business days besides the days outside the dealing week (dealingWeekdays), `YYYY-MM-DD`, ascending' })
  @Property({ type: 'json' })
  holidays: Opt<string[]> = [];

  @Field(() => [String], { description: "Currencies an order may be placed in besides the share class's own, e.g. `USDC`" })
  @Property({ type: 'json' })
  settlementCurrencies: Opt<string[]> = [];
}
