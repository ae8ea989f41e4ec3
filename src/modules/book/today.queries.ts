import { DateTime } from 'luxon';
import type { Clock } from '../../common/clock';
import type { ServiceContext } from '../../access/service-context';
import { rawRows } from '../../persistence/raw-query';
import { ShareClass } from '../share-class';
import type { DealingService } from '../dealing';
import { ChainMovementKind, ChainTxStatus } from '../chain';
import { ApprovalStatus } from '../approval';
import { OrderFlow, TRANSITIONS } from '../order';
import { ORDER_CORRELATION_PREFIX } from '../settlement';
import { WAITING } from './book.service';
import type { Today, TodayAum, TodayNavDue, TodayOrderToAccept, TodaySettlementDue } from './today.types';

const DAY_MS = 86_400_000;
/** Failed transactions older than this are history, not today's work. */
const FAILED_DAYS = 7;
const LIST = 20;

/** The states ops's acceptance leaves, per flow, read from the state machines (one-step `pending`, two-step `submitted`). */
const TO_ACCEPT: string[] = [
  ...new Set(
    Object.values(OrderFlow).flatMap((flow) =>
      TRANSITIONS[flow].flatMap((t) => (t.to === 'accepted' && t.from && (t.by as readonly string[]).includes('ops') ? [t.from] : [])),
    ),
  ),
];
/** Every state some move leaves: an order there is not done. */
const OPEN: string[] = [...new Set(WAITING.flatMap(([, statuses]) => statuses))];

/** Each share class's dealing zone (its calendar's, UTC without one), for the statements below. */
const ZONED = `select s.id, s.meta->>'name' as name, s.status, coalesce(dc.time_zone, 'UTC') as tz,
                      (?::timestamptz at time zone coalesce(dc.time_zone, 'UTC'))::date as today
                 from share_class s left join dealing_calendar dc on dc.share_class_id = s.id`;

/**
 * What the desk has to do today, each list one statement over the tables that hold it (orders,
 * NAVs, approval requests, chain intents and movements, the register), so its cost does not grow
 * with the number of share classes or orders beyond what the statements read. "Today" is read in
 * each share class's dealing zone, as its dealing dates are. Its statements are its own, so this
 * is the module's queries file for them (docs/architecture.md, "SQL").
 */
export class TodayService {
  constructor(
    private readonly clock: Clock,
    private readonly dealing: DealingService,
  ) {}

  async today(ctx: ServiceContext): Promise<Today> {
    ctx.access.requireOps();
    const at = this.clock.now();
    const accept = await this.ordersToAccept(ctx);
    return {
      at,
      ordersToAcceptCount: accept.count,
      ordersToAccept: accept.orders,
      navsDue: await this.navsDue(ctx, at),
      settlementsDue: await this.settlementsDue(ctx, at),
      approvalsWaiting: await rawRows<{ kind: string; count: number }>(
        ctx.em,
        `select kind, count(*)::int as count from approval_request where status = ? group by kind order by kind`,
        [ApprovalStatus.requested],
      ),
      failedTransfers: (await this.failedTransfers(ctx, at)).map((r) => ({ ...r, at: new Date(r.at) })),
      unexplainedMovements: await rawRows<{ shareClassId: string; shareClassName: string; movements: number; tokens: string }>(
        ctx.em,
        `select m.share_class_id as "shareClassId", s.meta->>'name' as "shareClassName", count(*)::int as movements, trim_scale(sum(m.tokens))::text as tokens
           from chain_movement m join share_class s on s.id = m.share_class_id
          where (m.kind = any(?) or m.ineligibility is not null) and m.undone_at is null group by 1, 2 order by 1`,
        [[ChainMovementKind.unknown_holder, ChainMovementKind.issuance]],
      ),
      aum: await this.aum(ctx),
    };
  }

  private async ordersToAccept(ctx: ServiceContext): Promise<{ count: number; orders: TodayOrderToAccept[] }> {
    const rows = await rawRows<TodayOrderToAccept & { total: number }>(
      ctx.em,
      `select o.id, o.flow, o.status, o.type, o.share_class_id as "shareClassId", s.meta->>'name' as "shareClassName",
              trim_scale(o.amount)::text as amount, trim_scale(o.token_count)::text as "tokenCount", coalesce(o.currency, s.currency) as currency,
              to_char(o.dealing_date, 'YYYY-MM-DD') as "dealingDate", o.created_at as "placedAt", (count(*) over ())::int as total
         from "order" o join share_class s on s.id = o.share_class_id
        where o.status = any(?) order by o.created_at, o.id limit ?`,
      [TO_ACCEPT, LIST],
    );
    return { count: rows[0]?.total ?? 0, orders: rows.map(({ total: _, ...o }) => ({ ...o, placedAt: new Date(o.placedAt) })) };
  }

  /** Dealing dates up to today with orders still open and no NAV, and today's own where today deals. */
  private async navsDue(ctx: ServiceContext, at: Date): Promise<TodayNavDue[]> {
    const todays = await this.todaysDealingDates(ctx, at);
    return rawRows<TodayNavDue>(
      ctx.em,
      `with zoned as (${ZONED}),
            dates as (select o.share_class_id as id, o.dealing_date as d, count(*)::int as open from "order" o
                       where o.status = any(?) and o.dealing_date is not null group by 1, 2
                      union all
                      select t->>0, (t->>1)::date, 0 from jsonb_array_elements(?::jsonb) t),
            due as (select id, d, sum(open)::int as open from dates group by 1, 2)
       select z.id as "shareClassId", z.name as "shareClassName", z.tz as "timeZone", to_char(due.d, 'YYYY-MM-DD') as "dealingDate",
              due.open as "openOrders",
              (select count(*)::int from approval_request r where r.kind = 'nav_confirmation' and r.status = ? and r.arguments->>'shareClassId' = z.id) as "pendingNavs"
         from due join zoned z on z.id = due.id
        where due.d <= z.today
          and not exists (select 1 from nav n where n.share_class_id = z.id and (n.published_at at time zone z.tz)::date = due.d and n.published_at <= ?)
        order by due.d, z.id`,
      [at, OPEN, JSON.stringify(todays), ApprovalStatus.requested, at],
    );
  }

  /** Per active share class whose dealing week includes today: [id, today], read by the calendar code placement uses. */
  private async todaysDealingDates(ctx: ServiceContext, at: Date): Promise<[string, string][]> {
    const out: [string, string][] = [];
    for (const sc of await ctx.em.find(ShareClass, { status: 'active' }, { orderBy: { id: 'asc' } })) {
      const rules = await this.dealing.rulesOf(ctx, sc);
      const startOfDay = DateTime.fromJSDate(at, { zone: rules.calendar.timeZone }).startOf('day');
      // The dealing date an order placed at the start of today takes: today's, if today deals.
      const { dealingDate } = this.dealing.datesOf(rules, sc, 'subscription', startOfDay.toJSDate());
      if (dealingDate === startOfDay.toISODate()) out.push([sc.id, dealingDate]);
    }
    return out;
  }

  private async settlementsDue(ctx: ServiceContext, at: Date): Promise<TodaySettlementDue[]> {
    return rawRows<TodaySettlementDue>(
      ctx.em,
      `with zoned as (${ZONED})
       select z.id as "shareClassId", z.name as "shareClassName", to_char(o.dealing_date, 'YYYY-MM-DD') as "dealingDate",
              to_char(min(o.expected_settlement_date), 'YYYY-MM-DD') as "expectedSettlementDate", count(*)::int as orders,
              exists (select 1 from nav n where n.share_class_id = z.id and (n.published_at at time zone z.tz)::date = o.dealing_date
                                            and n.published_at <= ?) as "navPublished"
         from "order" o join zoned z on z.id = o.share_class_id
        where o.status = 'accepted' and o.expected_settlement_date <= z.today
        group by z.id, z.name, z.tz, o.dealing_date
        order by o.dealing_date, z.id`,
      [at, at],
    );
  }

  private failedTransfers(ctx: ServiceContext, at: Date) {
    return rawRows<{
      id: string;
      chainId: string;
      purpose: string;
      status: string;
      orderId: string | null;
      investorId: string | null;
      revertReason: string | null;
      at: Date;
    }>(
      ctx.em,
      `select t.id::text, t.chain_id as "chainId", t.purpose, t.status, o.id as "orderId",
              coalesce(o.investor_id, w.investor_id) as "investorId", t.revert_reason as "revertReason", t.updated_at as at
         from chain_transaction t
         left join "order" o on t.correlation = ?::text || o.id
         left join investor_wallet w on w.id = t.wallet_id
        where t.status = any(?) and t.updated_at > ?
        order by t.updated_at desc, t.id desc limit ?`,
      [ORDER_CORRELATION_PREFIX, [ChainTxStatus.reverted, ChainTxStatus.failed], new Date(at.getTime() - FAILED_DAYS * DAY_MS), LIST],
    );
  }

  /** The live NAV's AUM (the register's tokens now) against the AUM when the NAV before it was published. */
  private async aum(ctx: ServiceContext): Promise<TodayAum[]> {
    const rows = await rawRows<Omit<TodayAum, 'navPublishedAt'> & { navPublishedAt: Date }>(
      ctx.em,
      `select s.id as "shareClassId", s.meta->>'name' as "shareClassName", n.currency, trim_scale(n.close)::text as nav, n.published_at as "navPublishedAt",
              trim_scale(t.tokens)::text as tokens, trim_scale(t.tokens * n.close)::text as aum,
              trim_scale(p.aum)::text as "previousAum", trim_scale(t.tokens * n.close - p.aum)::text as change
         from share_class s
         cross join lateral (select * from nav where share_class_id = s.id and published_at <= ? order by published_at desc, id desc limit 1) n
         cross join lateral (select coalesce(sum(h.balance), 0) as tokens from holding h where h.share_class_id = s.id) t
         left join lateral (select pn.close * (select coalesce(sum(m.change), 0) from holding_movement m
                                               where m.share_class_id = s.id and m.at <= pn.published_at) as aum
                              from nav pn where pn.share_class_id = s.id and pn.published_at < n.published_at
                             order by pn.published_at desc, pn.id desc limit 1) p on true
        order by s.id`,
      [this.clock.now()],
    );
    return rows.map((r) => ({ ...r, navPublishedAt: new Date(r.navPublishedAt) }));
  }
}
