import type { FilterQuery, QBFilterQuery } from '@mikro-orm/core';
import { badRequest } from '../../common/errors';
import { rawRows } from '../../common/raw-query';
import { readRecord } from '../../common/read-record';
import type { ServiceContext } from '../../common/service-context';
import { optional } from '../../common/validate';
import { documentedId, ID_PREFIXES } from '../../common/ids';
import { afterCursor, DEFAULT_PAGE, MAX_PAGE, pageOf, pageSize } from '../../graphql/pagination';
import { Distributor } from '../distributor/distributor.entity';
import { distributorNotFound } from '../distributor/distributor.errors';
import { Investor } from '../investor/investor.entity';
import { investorNotFound } from '../investor/investor.errors';
import { Order, OrderFlow, OrderStatusEntry } from './order.entity';
import { orderNotFound } from './order.errors';
import { readOrderId } from './order-flow';
import { TWO_STEP_STATUSES } from './two-step.states';

/** Filters of the order book (GraphQL `orders`, and the R-two-step lists). */
export interface OrderListFilter {
  distributorId?: string | null;
  investorId?: string | null;
  shareClassId?: string | null;
  status?: string | null;
  externalRef?: string | null;
  flow?: OrderFlow | null;
  createdFrom?: Date | null;
  createdTo?: Date | null;
  dealingDate?: string | null;
  expectedSettlementDate?: string | null;
  expectedSettlementBefore?: string | null;
}

/** An order read by `OrderService.visibleOrderRecord`: the entity's fields and its history, preloaded. */
export type OrderRecord = Order & { loadedStatusHistory: OrderStatusEntry[] };

/** The order and its history (oldest first, as `Order.statusHistory`) in one statement. */
const READ_ORDER_SQL = `select o.*, coalesce((select json_agg(json_build_object('id', e.id, 'at', e.at, 'status', e.status, 'by', e.by, 'note', e.note) order by e.at, e.id)
  from order_status_entry e where e.order_id = o.id), '[]'::json) as status_history
  from "order" o where o.id = ?`;

/**
 * What both order flows share: reading an order as the caller may see it. The flows' own rules
 * live in their services (two-step and one-step), which build on this.
 */
export class OrderService {
  /**
   * The order if the caller may see it, of the given flow when one is named; another
   * distributor's, another flow's or no order's id answers `order not found`.
   */
  async visibleOrder(ctx: ServiceContext, orderId: unknown, flow?: OrderFlow): Promise<Order> {
    const owned = ctx.access.ownedBy();
    const idFlow = readOrderId(orderId);
    if (idFlow === null || (flow && idFlow !== flow)) throw orderNotFound();
    const order = await ctx.em.findOne(Order, { id: orderId as string, ...owned });
    if (!order) throw orderNotFound();
    return order;
  }

  /**
   * `visibleOrder` for reads that change nothing: the order and its status history in one SQL
   * statement, as a plain record with the entity's fields (relations as `{ id }`, the history
   * preloaded for `Order.statusHistory`), without the unit of work's entity creation.
   */
  async visibleOrderRecord(ctx: ServiceContext, orderId: unknown): Promise<OrderRecord> {
    const scope = ctx.access.scope();
    if (readOrderId(orderId) === null) throw orderNotFound();
    const rows = await rawRows(ctx.em, scope.all ? READ_ORDER_SQL : `${READ_ORDER_SQL} and o.distributor_id = ?`, scope.all ? [orderId] : [orderId, scope.distributorId]);
    if (!rows.length) throw orderNotFound();
    const { status_history: history, ...row } = rows[0];
    return orderRecord(ctx, row, (history as { id: number | string; at: string; status: string; by: string; note: string | null }[]).map((e) =>
      readRecord(OrderStatusEntry, { id: String(e.id), order: { id: orderId }, at: new Date(e.at), status: e.status, by: e.by, note: e.note ?? undefined }),
    ));
  }

  /**
   * A page of the order book as the caller may see it, newest first, keyset-paginated (up to
   * 1,000 a page). Naming another distributor, or an investor of another distributor, answers
   * like a missing one (`distributorId not found` / `investorId not found`).
   */
  async list(ctx: ServiceContext, filter: OrderListFilter, page: { first?: number | null; after?: string | null } = {}): Promise<{ items: Order[]; nextCursor: string | null }> {
    const where: Record<string, unknown> = { ...ctx.access.ownedBy() };
    const distributorId = optionalId(filter.distributorId, 'distributorId');
    if (distributorId !== undefined) {
      if (!ctx.access.sees(distributorId) || !(await ctx.em.count(Distributor, { id: distributorId }))) throw distributorNotFound();
      where.distributor = distributorId;
    }
    const investorId = optionalId(filter.investorId, 'investorId');
    if (investorId !== undefined) {
      const investor = await ctx.em.findOne(Investor, { id: investorId, ...ctx.access.ownedBy() });
      if (!investor) throw investorNotFound();
      where.investor = investorId;
    }
    const shareClassId = optional(filter.shareClassId, 'shareClassId');
    if (shareClassId !== undefined) where.shareClass = shareClassId;
    const status = optional(filter.status, 'status');
    if (status !== undefined) {
      if (filter.flow === OrderFlow.two_step && !(TWO_STEP_STATUSES as readonly string[]).includes(status)) {
        throw badRequest(`status must be one of ${TWO_STEP_STATUSES.join(', ')}`);
      }
      where.status = status;
    }
    // Verbatim, like the stored value: an empty string is not "no filter" here.
    if (typeof filter.externalRef === 'string') where.externalRef = filter.externalRef;
    if (filter.flow) where.flow = filter.flow;
    if (filter.createdFrom || filter.createdTo) {
      where.createdAt = { ...(filter.createdFrom ? { $gte: filter.createdFrom } : {}), ...(filter.createdTo ? { $lte: filter.createdTo } : {}) };
    }
    Object.assign(where, dealingFilter(filter));
    // One statement built by the ORM from the filter above, its rows kept plain: hydrating
    // and tracking a page of entities cost ~20 times the SQL.
    const limit = pageSize(page.first, MAX_PAGE, DEFAULT_PAGE);
    const rows = await ctx.em
      .createQueryBuilder(Order)
      .select('*')
      .where(afterCursor(where as FilterQuery<Order>, page.after) as QBFilterQuery<Order>)
      .orderBy({ createdAt: 'desc', id: 'desc' })
      .limit(limit + 1)
      .execute('all', false);
    return pageOf(rows.map((row) => orderRecord(ctx, row)), limit);
  }
}

/**
 * An order row as a read-only record of the entity's class (`readRecord`): the entity's fields,
 * relations as `{ id }`, the history when it was read with the row (else `Order.statusHistory`
 * loads it in a batch).
 */
function orderRecord(ctx: ServiceContext, row: object, history?: OrderStatusEntry[]): OrderRecord {
  const meta = ctx.em.getMetadata().get(Order.name);
  const data = ctx.em.getDriver().mapResult(row as never, meta as never) as Record<string, unknown>;
  const ref = (v: unknown) => ({ id: typeof v === 'object' && v !== null ? (v as { id: string }).id : (v as string) });
  return readRecord(Order, {
    ...data,
    distributor: ref(data.distributor),
    investor: ref(data.investor),
    shareClass: ref(data.shareClass),
    ...(history ? { loadedStatusHistory: history } : {}),
  }) as OrderRecord;
}

/** The dealing filters of the order book: what is dealt or due on a date, what is late. */
function dealingFilter(filter: OrderListFilter): Record<string, unknown> {
  const date = (field: 'dealingDate' | 'expectedSettlementDate' | 'expectedSettlementBefore') => {
    const v = optional(filter[field], field);
    if (v !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(v)) throw badRequest(`${field} must be a date YYYY-MM-DD`);
    return v;
  };
  const where: Record<string, unknown> = {};
  const dealingDate = date('dealingDate');
  if (dealingDate) where.dealingDate = dealingDate;
  const due = date('expectedSettlementDate');
  const before = date('expectedSettlementBefore');
  if (due || before) where.expectedSettlementDate = { ...(due ? { $eq: due } : {}), ...(before ? { $lt: before } : {}) };
  return where;
}

/** A documented id filter (`invalid <field> format` when malformed); absent or empty: no filter. */
function optionalId(value: unknown, field: 'distributorId' | 'investorId'): string | undefined {
  return optional(value, field) === undefined ? undefined : documentedId(value, field, ID_PREFIXES[field]);
}
