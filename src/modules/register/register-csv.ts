import type { EntityManager } from '@mikro-orm/postgresql';
import { DateTime } from 'luxon';
import { badRequest, notFound } from '../../common/errors';
import { decimalString } from '../../common/money';
import { incomeInPeriod } from '../distribution';
import { toCsv } from './csv';
import type { Positions } from './positions';
import type { RegisterAtDate } from './register-at-date';
import { investorBalancesBefore, investorExists, movementsBetween, ordersPlacedBetween } from './register.queries';

/** The register at a date as CSV: one row per holder and wallet (a holder without a wallet: one row, wallet empty). */
export function registerCsv(r: RegisterAtDate): string {
  const header = ['shareClassId', 'asOf', 'timeZone', 'blockNumber', 'investorId', 'distributorId', 'balance', 'locked', 'wallet', 'walletBalance'];
  const rows = r.holders.flatMap((h) =>
    (h.wallets.length ? h.wallets : [{ address: '', balance: '' }]).map((w) => [
      r.shareClassId,
      r.asOf,
      r.timeZone,
      r.blockNumber,
      h.investorId,
      h.distributorId,
      h.balance,
      h.locked,
      w.address,
      w.balance,
    ]),
  );
  return toCsv(header, rows);
}

/** The current register as CSV: one row per holder, the live NAV and the instant read on each. */
export function positionsCsv(p: Positions): string {
  const header = [
    'shareClassId',
    'at',
    'navClose',
    'currency',
    'investorId',
    'investorName',
    'distributorId',
    'distributorName',
    'tokens',
    'value',
    'sharePercent',
    'locked',
  ];
  const rows = p.holders.map((h) => [
    p.shareClassId,
    p.at,
    p.navClose,
    p.currency,
    h.investorId,
    h.investorName,
    h.distributorId,
    h.distributorName,
    h.tokens,
    h.value,
    h.sharePercent,
    h.locked,
  ]);
  return toCsv(header, rows);
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * An investor's statement over the days `from`..`to` (UTC, both included) as CSV: its holdings at
 * the period's end, every holding movement, every order placed in the period and its income: each
 * distribution payable in the period (section `income`, `at` the pay date; docs/register.md).
 */
export async function statementCsv(em: EntityManager, investorId: string, from: string, to: string): Promise<string> {
  if (!DATE.test(from) || !DATE.test(to) || !DateTime.fromISO(from, { zone: 'utc' }).isValid || !DateTime.fromISO(to, { zone: 'utc' }).isValid)
    throw badRequest('from and to must be dates YYYY-MM-DD');
  if (from > to) throw badRequest('from must not be after to');
  if (!(await investorExists(em, investorId))) throw notFound('Investor not found');
  const start = DateTime.fromISO(from, { zone: 'utc' }).toJSDate();
  const end = DateTime.fromISO(to, { zone: 'utc' }).plus({ days: 1 }).toJSDate();
  const header = ['section', 'at', 'shareClassId', 'reference', 'type', 'status', 'change', 'balance', 'amount', 'currency', 'tokens'];
  const rows: unknown[][] = [];
  const holdings = await investorBalancesBefore(em, investorId, end);
  for (const h of holdings) rows.push(['holding', end, h.share_class_id, '', '', '', '', decimalString(h.balance), '', '', '']);
  const moves = await movementsBetween(em, investorId, start, end);
  for (const m of moves)
    rows.push([
      'movement',
      new Date(m.at),
      m.share_class_id,
      m.order_id ?? m.transfer_hash ?? '',
      m.source,
      '',
      decimalString(m.change),
      decimalString(m.balance),
      '',
      '',
      '',
    ]);
  const orders = await ordersPlacedBetween(em, investorId, start, end);
  for (const o of orders)
    rows.push([
      'order',
      new Date(o.created_at),
      o.share_class_id,
      o.id,
      o.type,
      o.status,
      '',
      '',
      o.amount === null ? '' : decimalString(o.amount),
      o.currency ?? '',
      o.tokens === null ? '' : decimalString(o.tokens),
    ]);
  for (const i of await incomeInPeriod(em, investorId, from, to))
    rows.push(['income', i.payDate, i.shareClassId, i.distributionId, i.payment, i.status, '', '', i.amount, i.currency, i.tokens ?? '']);
  return toCsv(header, rows);
}
