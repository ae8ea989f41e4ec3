import type { EntityManager } from '@mikro-orm/postgresql';
import { afterCursorSql } from '../../persistence/pagination';
import { rawRows } from '../../persistence/raw-query';
import type { OrderFlow } from './order.entity';

/** The order book's reads (docs/architecture.md, "SQL"): an order with its history, a page of orders. */

/** An order's row (every column of `order`) and its history, oldest first. */
export type OrderRow = Record<string, unknown> & { status_history: StatusEntryRow[] };

export interface StatusEntryRow {
  id: number | string;
  at: string;
  status: string;
  by: string;
  note: string | null;
}

const READ_ORDER_SQL = `select o.*, coalesce((select json_agg(json_build_object('id', e.id, 'at', e.at, 'status', e.status, 'by', e.by, 'note', e.note) order by e.at, e.id)
  from order_status_entry e where e.order_id = o.id), '[]'::json) as status_history
  from "order" o where o.id = ?`;
const READ_OWN_ORDER_SQL = `${READ_ORDER_SQL} and o.distributor_id = ?`;

/**
 * The order and its history in one statement, the distributor's own when one is named.
 * Paid by: `npm run bench` (docs/benchmarks.md, "Latest figures": GET /orders/:id), and by the
 * row "order.service.ts (`list`)" of "Measured costs behind code choices" (entities cost ~20 times the SQL).
 */
export async function orderWithHistory(em: EntityManager, orderId: string, distributorId: string | null): Promise<OrderRow | null> {
  const rows = await rawRows<OrderRow>(
    em,
    distributorId === null ? READ_ORDER_SQL : READ_OWN_ORDER_SQL,
    distributorId === null ? [orderId] : [orderId, distributorId],
  );
  return rows[0] ?? null;
}

/** The filters of a page of the order book, read and checked by the service. */
export interface OrderPageFilter {
  /** The caller's own distributor (a distributor's principal sees only its orders). */
  ownDistributorId?: string;
  distributorId?: string;
  investorId?: string;
  shareClassId?: string;
  status?: string;
  externalRef?: string;
  flow?: OrderFlow;
  createdFrom?: Date;
  createdTo?: Date;
  dealingDate?: string;
  expectedSettlementDate?: string;
  expectedSettlementBefore?: string;
  /** The key the page starts after. */
  after?: { at: Date; id: string };
}

/** A record a filter names, which must exist (as the caller's own distributor's, for an investor). */
export type NamedRecord = { distributorId: string } | { investorId: string; ofDistributor: string | null };

function existsSql(named: NamedRecord): { sql: string; params: unknown[] } {
  if ('distributorId' in named) return { sql: 'exists(select 1 from distributor where id = ?)', params: [named.distributorId] };
  return named.ofDistributor === null
    ? { sql: 'exists(select 1 from investor where id = ?)', params: [named.investorId] }
    : { sql: 'exists(select 1 from investor where id = ? and distributor_id = ?)', params: [named.investorId, named.ofDistributor] };
}

/** `and`-ed conditions with their `?` parameters in order. */
function conditionsOf(f: OrderPageFilter): { sql: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  const add = (condition: string, ...values: unknown[]) => {
    parts.push(condition);
    params.push(...values);
  };
  if (f.ownDistributorId !== undefined) add('o.distributor_id = ?', f.ownDistributorId);
  if (f.distributorId !== undefined) add('o.distributor_id = ?', f.distributorId);
  if (f.investorId !== undefined) add('o.investor_id = ?', f.investorId);
  if (f.shareClassId !== undefined) add('o.share_class_id = ?', f.shareClassId);
  if (f.status !== undefined) add('o.status = ?', f.status);
  if (f.externalRef !== undefined) add('o.external_ref = ?', f.externalRef);
  if (f.flow) add('o.flow = ?', f.flow);
  if (f.createdFrom) add('o.created_at >= ?', f.createdFrom);
  if (f.createdTo) add('o.created_at <= ?', f.createdTo);
  if (f.dealingDate) add('o.dealing_date = ?', f.dealingDate);
  if (f.expectedSettlementDate) add('o.expected_settlement_date = ?', f.expectedSettlementDate);
  if (f.expectedSettlementBefore) add('o.expected_settlement_date < ?', f.expectedSettlementBefore);
  if (f.after) {
    const after = afterCursorSql(f.after, 'o');
    add(after.sql, ...after.params);
  }
  return { sql: parts.length ? parts.join(' and ') : 'true', params };
}

/**
 * Whether each named record exists, when a filter was refused after naming them (the refusal
 * answers second). Kept as SQL: the very conditions the page's statement checks, one rule.
 */
export async function namedRecordsExist(em: EntityManager, named: NamedRecord[]): Promise<boolean[]> {
  const checks = named.map(existsSql);
  const [found] = await rawRows<Record<string, boolean>>(
    em,
    `select ${checks.map((n, i) => `${n.sql} as found_${i}`).join(', ')}`,
    checks.flatMap((n) => n.params),
  );
  return checks.map((_, i) => found[`found_${i}`]);
}

/**
 * A page of the order book, newest first: `limit` rows of the given columns (all of them when
 * none are named), and whether each named record exists (the page is empty when one does not).
 * Paid by: `npm run bench` (docs/benchmarks.md, "Latest figures": both REST lists and the
 * GraphQL orders page of 100; "Measured costs behind code choices", order.service.ts `list`:
 * entities cost ~20 times the SQL, the query builder ~0.5 ms).
 */
export async function orderPage(
  em: EntityManager,
  filter: OrderPageFilter,
  named: NamedRecord[],
  columns: readonly string[] | null,
  limit: number,
): Promise<{ found: boolean[]; rows: Record<string, unknown>[] }> {
  const where = conditionsOf(filter);
  const selected = columns ? columns.map((c) => `o."${c}"`).join(', ') : 'o.*';
  const pageSql = `select ${selected} from "order" o where ${where.sql} order by o.created_at desc, o.id desc limit ?`;
  if (!named.length) return { found: [], rows: await rawRows(em, pageSql, [...where.params, limit]) };
  // The existence checks ride with the page: one row of nulls when the page is empty. The
  // page keeps its order (a nested loop over the checks' single row), so no second sort.
  const checks = named.map(existsSql);
  const checked = await rawRows(
    em,
    `select ${checks.map((_, i) => `x.found_${i}`).join(', ')}, p.* from (select ${checks.map((n, i) => `${n.sql} as found_${i}`).join(', ')}) x
      left join lateral (${pageSql}) p on ${checks.map((_, i) => `x.found_${i}`).join(' and ')}`,
    [...checks.flatMap((n) => n.params), ...where.params, limit],
  );
  const found = checks.map((_, i) => Boolean(checked[0][`found_${i}`]));
  return { found, rows: found.every(Boolean) && checked[0].id !== null ? checked : [] };
}
