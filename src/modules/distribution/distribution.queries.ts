import type { EntityManager } from '@mikro-orm/postgresql';
import { decimalString } from '../../common/money';
import { rawRows } from '../../persistence/raw-query';
import { WalletStatus } from '../investor';

/* The distribution module's SQL (docs/architecture.md, "SQL"). */

/**
 * The wallet each investor's reinvested tokens are minted to: their oldest wallet whitelisted on
 * the token's chain (the register is per investor; any of their own wallets keeps it whole).
 * Whitelisted means the custody rule's `own` and the token's identity check both hold.
 * Paid by: `npm run bench:distribution` (docs/benchmarks.md, "Distribution to 10,000 holders"):
 * one statement for every holder of a payment.
 */
export async function payableWallets(em: EntityManager, chainId: string, investorIds: string[]): Promise<Map<string, string>> {
  if (!investorIds.length) return new Map();
  const rows = await rawRows<{ investor_id: string; address: string }>(
    em,
    `select distinct on (investor_id) investor_id, lower(address) as address from investor_wallet
     where chain_id = ? and status = '${WalletStatus.whitelisted}' and investor_id = any(?::text[])
     order by investor_id, id`,
    [chainId, `{${investorIds.join(',')}}`],
  );
  return new Map(rows.map((r) => [r.investor_id, r.address]));
}

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
 * Paid by: `npm run bench:distribution` (docs/benchmarks.md, "Distribution to 10,000 holders":
 * declare): one statement over the journal for every holder and day; the ORM has no form for it.
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

/** One income line of an investor's statement. */
export interface IncomeStatementRow {
  payDate: string;
  shareClassId: string;
  distributionId: string;
  payment: string;
  status: string;
  /** What was paid in currency (cash), else the entitlement (reinvest, or not paid yet). */
  amount: string;
  currency: string;
  tokens: string | null;
}

/**
 * An investor's entitlements to the distributions whose pay date falls in `from`..`to` (dates
 * YYYY-MM-DD, both included): the statement counts income when it is payable, whatever the period
 * it was earned over. Oldest pay date first.
 * Kept as SQL, no benchmark pays for it: a line of two tables' columns, decimals read as exact
 * text, which the ORM would hydrate as two entities per line.
 */
export async function incomeInPeriod(em: EntityManager, investorId: string, from: string, to: string): Promise<IncomeStatementRow[]> {
  const rows = await rawRows<{
    pay_date: string;
    share_class_id: string;
    id: string;
    payment: string;
    status: string;
    gross: string;
    amount: string | null;
    currency: string;
    tokens: string | null;
  }>(
    em,
    `select d.pay_date, d.share_class_id, d.id::text, d.payment, e.status, e.gross::text, e.amount::text, d.currency, e.tokens::text
       from distribution_entitlement e join distribution d on d.id = e.distribution_id
      where e.investor_id = ? and d.pay_date >= ? and d.pay_date <= ? order by d.pay_date, d.id`,
    [investorId, from, to],
  );
  return rows.map((r) => ({
    payDate: r.pay_date,
    shareClassId: r.share_class_id,
    distributionId: r.id,
    payment: r.payment,
    status: r.status,
    amount: decimalString(r.amount ?? r.gross),
    currency: r.currency,
    tokens: r.tokens === null ? null : decimalString(r.tokens),
  }));
}
