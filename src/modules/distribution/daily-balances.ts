import type { EntityManager } from '@mikro-orm/postgresql';
import { rawRows } from '../../persistence/raw-query';

/** A holder's daily closing balances over a period, summed. */
export interface HolderDays {
  investorId: string;
  distributorId: string;
  /** Σ over the period's days of the balance at the day's close (token-days). */
  tokenDays: string;
  /** Days the holder closed with tokens. */
  daysHeld: number;
}

/**
 * The register's daily closing balances of a share class over `from`..`to` (days in the dealing
 * zone `timeZone`, both included), per holder, read from the holding journal
 * (`holding_movement`, whose every row carries the balance after it): a day's closing balance is
 * the balance after the last movement before the next day's midnight in that zone. A holder who
 * joined mid-period has zero before the join; one who left has zero after leaving. Holders whose
 * every closing balance was zero are left out.
 */
export async function dailyClosingBalances(em: EntityManager, shareClassId: string, from: string, to: string, timeZone: string): Promise<HolderDays[]> {
  const rows = await rawRows<{ investor_id: string; distributor_id: string; token_days: string; days_held: string }>(
    em,
    `with days as (
       select ((d::date + 1)::timestamp at time zone ?) as close_at
       from generate_series(?::date, ?::date, interval '1 day') d
     ), holders as (
       select distinct investor_id from holding_movement where share_class_id = ? and at < (select max(close_at) from days)
     )
     select h.investor_id, i.distributor_id, sum(coalesce(b.balance, 0))::text as token_days, count(*) filter (where b.balance > 0)::text as days_held
     from holders h
     join investor i on i.id = h.investor_id
     cross join days
     left join lateral (
       select m.balance from holding_movement m
       where m.investor_id = h.investor_id and m.share_class_id = ? and m.at < days.close_at
       order by m.at desc, m.id desc limit 1
     ) b on true
     group by h.investor_id, i.distributor_id
     having sum(coalesce(b.balance, 0)) > 0
     order by h.investor_id`,
    [timeZone, from, to, shareClassId, shareClassId],
  );
  return rows.map((r) => ({ investorId: r.investor_id, distributorId: r.distributor_id, tokenDays: r.token_days, daysHeld: Number(r.days_held) }));
}
