import type { EntityManager } from '@mikro-orm/postgresql';
import { ORDER_CORRELATION_PREFIX } from '../settlement';
import { rawRows } from '../../persistence/raw-query';

/**
 * The book's SQL (docs/architecture.md, "SQL"): each series of the desk's home screen is one
 * statement, summed by PostgreSQL in numeric so every figure stays exact. Kept as SQL, no
 * benchmark pays for it: aggregates over several tables (lateral sums, `filter`, grouping) that
 * the ORM has no plain form for.
 */

export type BookAumRow = { share_class_id: string; name: string; published_at: Date; nav: string; currency: string; tokens: string; aum: string };

/** Each NAV published since `since`, with the register's tokens at its time and their value. */
export function bookAumRows(em: EntityManager, since: Date): Promise<BookAumRow[]> {
  return rawRows<BookAumRow>(
    em,
    `select n.share_class_id, sc.meta->>'name' as name, n.published_at, trim_scale(n.close)::text as nav, n.currency,
              trim_scale(t.tokens)::text as tokens, trim_scale(t.tokens * n.close)::text as aum
         from nav n
         join share_class sc on sc.id = n.share_class_id
         cross join lateral (select coalesce(sum(m.change), 0) as tokens from holding_movement m
                              where m.share_class_id = n.share_class_id and m.at <= n.published_at) t
        where n.published_at > ?
        order by n.share_class_id, n.published_at, n.id`,
    [since],
  );
}

export type BookFlowRow = { dealing_date: string; currency: string; subscriptions: number; subscribed: string; redemptions: number; redeemed: string };

/** Per dealing date from `fromDate` (YYYY-MM-DD) and currency: what was subscribed and redeemed, orders in `notDealt` left out. */
export function bookFlowRows(em: EntityManager, fromDate: string, notDealt: string[]): Promise<BookFlowRow[]> {
  return rawRows<BookFlowRow>(
    em,
    `select to_char(o.dealing_date, 'YYYY-MM-DD') as dealing_date, coalesce(o.currency, sc.currency) as currency,
              (count(*) filter (where o.type = 'subscription'))::int as subscriptions,
              trim_scale(coalesce(sum(o.amount) filter (where o.type = 'subscription'), 0))::text as subscribed,
              (count(*) filter (where o.type = 'redemption'))::int as redemptions,
              trim_scale(coalesce(sum(o.token_count) filter (where o.type = 'redemption'), 0))::text as redeemed
         from "order" o join share_class sc on sc.id = o.share_class_id
        where o.dealing_date >= ?::date and o.status <> all(?)
        group by 1, 2 order by 1, 2`,
    [fromDate, notDealt],
  );
}

export type BookWaitingRow = { flow: string; status: string; count: number };

/** How many orders are in each of the given (flow, statuses) pairs; a pair no order is in has no row. */
export function bookWaitingRows(em: EntityManager, waiting: [string, string[]][]): Promise<BookWaitingRow[]> {
  return rawRows<BookWaitingRow>(
    em,
    `select o.flow, o.status, count(*)::int as count from "order" o
         join (select w->>0 as flow, jsonb_array_elements_text(w->1) as status from jsonb_array_elements(?::jsonb) w) s
           on s.flow = o.flow and s.status = o.status
        group by 1, 2`,
    [JSON.stringify(waiting)],
  );
}

export type BookChainRow = {
  id: string;
  name: string;
  token: string | null;
  chain_id: string | null;
  register: string;
  in_flight: number;
  unexplained: number;
};

/** Per share class: its primary token, the register's total, settlements not in `finalTxStatuses`, movements of `unexplainedKinds` not undone. */
export function bookChainRows(em: EntityManager, finalTxStatuses: string[], unexplainedKinds: string[]): Promise<BookChainRow[]> {
  return rawRows<BookChainRow>(
    em,
    `select sc.id, sc.meta->>'name' as name, t.contract_address as token, t.chain_id,
              trim_scale(coalesce((select sum(h.balance) from holding h where h.share_class_id = sc.id), 0))::text as register,
              (select count(*) from chain_transaction ct join "order" o on ct.correlation = ?::text || o.id
                where o.share_class_id = sc.id and ct.status <> all(?))::int as in_flight,
              (select count(*) from chain_movement m
                where m.share_class_id = sc.id and m.kind = any(?) and m.undone_at is null)::int as unexplained
         from share_class sc left join token t on t.share_class_id = sc.id and t.is_primary
        order by sc.id`,
    [ORDER_CORRELATION_PREFIX, finalTxStatuses, unexplainedKinds],
  );
}
