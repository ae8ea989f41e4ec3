import type { EntityManager } from '@mikro-orm/postgresql';
import { decimalString } from '../../common/money';
import { rawRows } from '../../persistence/raw-query';

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
