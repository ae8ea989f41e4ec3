import { badRequest } from '../../common/errors';
import { readRecord, rowRecord, type EntityRecord, type Projected, type Projection } from '../../persistence/read-record';
import type { ServiceContext } from '../../access/service-context';
import { optional } from '../../common/validate';
import { documentedId, ID_PREFIXES } from '../../common/ids';
import { cursorKey, DEFAULT_PAGE, MAX_PAGE, pageOf, pageSize } from '../../persistence/pagination';
import { distributorNotFound } from '../distributor';
import { investorNotFound } from '../investor';
import { Order, OrderFlow, OrderStatusEntry } from './order.entity';
import { orderNotFound } from './order.errors';
import { readOrderId } from './order-flow';
import { statusesOf } from './order-states';
import { namedRecordsExist, orderPage, orderWithHistory, type NamedRecord, type OrderPageFilter } from './order-book.queries';

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

/**
 * An order read outside the unit of work (`OrderService.visibleOrderRecord`, a placement): every
 * field of the entity, read-only, relations as `{ id }`, and its history, preloaded. Not an
 * `Order`: the compiler refuses one where the managed entity is wanted (a transition, a flush).
 */
export type OrderRecord = EntityRecord<Order> & { readonly loadedStatusHistory: readonly EntityRecord<OrderStatusEntry>[] };

/**
 * An order of a page of the order book (`OrderService.list`): the fields of the query's selection
 * (`selectionProjection`), of which the type promises only the cursor's keys. Other fields are for
 * the Order type's field resolvers, each holding only what its `@Reads` declares.
 */
export type OrderProjection = Projected<Order, OrderListKey>;

/** What every page of orders reads, whatever is selected: the cursor's keys. */
export type OrderListKey = 'id' | 'createdAt';

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
    const found = await orderWithHistory(ctx.em, orderId as string, scope.all ? null : scope.distributorId);
    if (!found) throw orderNotFound();
    const { status_history: history, ...row } = found;
    return orderRecord(
      ctx,
      row,
      history.map((e) =>
        readRecord(OrderStatusEntry, { id: String(e.id), order: { id: orderId }, at: new Date(e.at), status: e.status, by: e.by, note: e.note ?? undefined }),
      ),
    );
  }

  /**
   * A page of the order book as the caller may see it, newest first, keyset-paginated (up to
   * 1,000 a page). Naming another distributor, or an investor of another distributor, answers
   * like a missing one (`distributorId not found` / `investorId not found`). With a `projection`
   * (which must hold `id` and `createdAt`, the cursor's keys), only its columns are read.
   */
  async list(
    ctx: ServiceContext,
    filter: OrderListFilter,
    page: { first?: number | null; after?: string | null } = {},
    projection: Projection<Order, OrderListKey> | null = null,
  ): Promise<{ items: OrderProjection[]; nextCursor: string | null }> {
    const scope = ctx.access.scope();
    const where: OrderPageFilter = {};
    if (!scope.all) where.ownDistributorId = scope.distributorId;
    // A named distributor or investor must exist: checked in the page's own statement. Input
    // problems found after one is named are held until then, so a request with both answers
    // first what it always did (`distributorId not found` before a bad status).
    const named: { record: NamedRecord; missing: () => Error }[] = [];
    let problem: unknown = null;
    const check = (rule: () => void) => {
      if (problem) return;
      try {
        rule();
      } catch (err) {
        if (!named.length) throw err;
        problem = err;
      }
    };
    check(() => {
      const distributorId = optionalId(filter.distributorId, 'distributorId');
      if (distributorId === undefined) return;
      if (!ctx.access.sees(distributorId)) throw distributorNotFound();
      named.push({ record: { distributorId }, missing: distributorNotFound });
      where.distributorId = distributorId;
    });
    check(() => {
      const investorId = optionalId(filter.investorId, 'investorId');
      if (investorId === undefined) return;
      named.push({ record: { investorId, ofDistributor: scope.all ? null : scope.distributorId }, missing: investorNotFound });
      where.investorId = investorId;
    });
    let limit = DEFAULT_PAGE;
    check(() => {
      const shareClassId = optional(filter.shareClassId, 'shareClassId');
      if (shareClassId !== undefined) where.shareClassId = shareClassId;
      const status = optional(filter.status, 'status');
      if (status !== undefined) {
        const statuses = statusesOf(OrderFlow.two_step);
        if (filter.flow === OrderFlow.two_step && !statuses.includes(status)) {
          throw badRequest(`status must be one of ${statuses.join(', ')}`);
        }
        where.status = status;
      }
      // Verbatim, like the stored value: an empty string is not "no filter" here.
      if (typeof filter.externalRef === 'string') where.externalRef = filter.externalRef;
      if (filter.flow) where.flow = filter.flow;
      if (filter.createdFrom) where.createdFrom = filter.createdFrom;
      if (filter.createdTo) where.createdTo = filter.createdTo;
      dealingFilter(filter, where);
      limit = pageSize(page.first, MAX_PAGE, DEFAULT_PAGE);
      const key = cursorKey(page.after);
      if (key) where.after = key;
    });
    if (problem) {
      const found = await namedRecordsExist(
        ctx.em,
        named.map((n) => n.record),
      );
      named.forEach((n, i) => {
        if (!found[i]) throw n.missing();
      });
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- the rule's own error, held and rethrown as it was thrown
      throw problem;
    }
    const { found, rows } = await orderPage(
      ctx.em,
      where,
      named.map((n) => n.record),
      projection ? projection.columns : null,
      limit + 1,
    );
    named.forEach((n, i) => {
      if (!found[i]) throw n.missing();
    });
    const items: OrderProjection[] = rows.map((row) => (projection ? rowRecord(ctx.em, Order, row, undefined, projection) : rowRecord(ctx.em, Order, row)));
    return pageOf(items, limit);
  }
}

/** An order row and its history as a read-only record of the entity's class (`rowRecord`). */
function orderRecord(ctx: ServiceContext, row: object, history: EntityRecord<OrderStatusEntry>[]): OrderRecord {
  return rowRecord(ctx.em, Order, row as Record<string, unknown>, { loadedStatusHistory: history }) as OrderRecord;
}

/** The dealing filters of the order book: what is dealt or due on a date, what is late. */
function dealingFilter(filter: OrderListFilter, where: OrderPageFilter): void {
  const date = (field: 'dealingDate' | 'expectedSettlementDate' | 'expectedSettlementBefore') => {
    const v = optional(filter[field], field);
    if (v !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(v)) throw badRequest(`${field} must be a date YYYY-MM-DD`);
    return v;
  };
  const dealingDate = date('dealingDate');
  const due = date('expectedSettlementDate');
  const before = date('expectedSettlementBefore');
  if (dealingDate) where.dealingDate = dealingDate;
  if (due) where.expectedSettlementDate = due;
  if (before) where.expectedSettlementBefore = before;
}

/** A documented id filter (`invalid <field> format` when malformed); absent or empty: no filter. */
function optionalId(value: unknown, field: 'distributorId' | 'investorId'): string | undefined {
  return optional(value, field) === undefined ? undefined : documentedId(value, field, ID_PREFIXES[field]);
}
