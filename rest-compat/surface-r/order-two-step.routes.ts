import { NOT_ELIGIBLE, NOT_TRADING } from '../openapi/documented-errors';
import { badRequest } from '../../src/common/errors';
import { OrderFlow } from '../../src/modules/order/order.entity';
import { flowOfOrderId, subscribeFlow } from '../../src/modules/order/order-flow';
import {
  CancelTwoStepSubscriptionDocument,
  CreateTwoStepSubscriptionDocument,
  PushTwoStepSubscriptionDocument,
  TwoStepOrderDocument,
  TwoStepOrderListDocument,
  type RestStatusEntryFragment,
  type RestTwoStepOrderFragment,
} from '../generated/graphql';
import { queryValue, route, type RestRequest } from '../route';
import * as S from '../openapi/schemas';
import { moneyNumber } from '../shapes';

const LIST_QUERY = {
  status: S.str('e.g. created, submitted, cancelled'),
  externalRef: S.additive(S.str('Orders with this externalRef')),
  limit: S.additive({ ...S.int('1 to 1000, default 1000'), minimum: 1, maximum: 1000 }),
  cursor: S.additive(S.str('`data.nextCursor` of the previous page')),
};
const LIST_DATA = S.listOf(S.twoStepListItem, { nextCursor: S.additive(S.nullable(S.str())) });
const ORDER_ID = { orderId: S.id('OR') };
const LIST_ERRORS = { 400: ['invalid cursor', 'limit must be an integer from 1 to 1000', 'status must be one of <statuses>'] };

/*
 * Surface R, R-two-step orders (spec/api-description.md, "Orders, R-two-step"). The record's
 * types are the description's: amounts and fees are JSON numbers, `nav` and
 * `amountTokensEstimated` decimal strings (`"-1"` when no live NAV priced the order), times epoch
 * ms, `statusHistory` a map keyed by epoch ms, `supplyRefs` only once pushed.
 */

/** `statusHistory` as the description shows it: `{ "<epoch ms>": { status, by, note? } }`, oldest first. */
function historyMap(entries: RestStatusEntryFragment[]) {
  const map: Record<string, { status: string; by: string; note?: string }> = {};
  for (const e of [...entries].sort((a, b) => a.at - b.at)) {
    map[String(e.at)] = e.note != null ? { status: e.status, by: e.by, note: e.note } : { status: e.status, by: e.by };
  }
  return map;
}

const UNPRICED = '-1';

function orderRecord(o: RestTwoStepOrderFragment) {
  const { statusHistory, supplyRefs, amountSubscription, amountFeesTotal, amountPayable, nav, amountTokensEstimated, ...rest } = o;
  return {
    orderId: rest.orderId,
    orderType: rest.orderType,
    status: rest.status,
    distributorId: rest.distributorId,
    investorId: rest.investorId,
    shareClassId: rest.shareClassId,
    amountSubscription: moneyNumber(amountSubscription),
    amountFeesTotal: moneyNumber(amountFeesTotal),
    amountPayable: moneyNumber(amountPayable),
    amountTokensEstimated: amountTokensEstimated ?? UNPRICED,
    feesSubBps: rest.feesSubBps,
    currency: rest.currency,
    deliveryMode: rest.deliveryMode,
    deliveryWallet: rest.deliveryWallet,
    nav: nav ?? UNPRICED,
    navPublishedAt: rest.navPublishedAt,
    externalRef: rest.externalRef,
    dealingDate: rest.dealingDate,
    cutOffAt: rest.cutOffAt,
    expectedSettlementDate: rest.expectedSettlementDate,
    createdAt: rest.createdAt,
    createdBy: rest.createdBy,
    updatedAt: rest.updatedAt,
    updatedBy: rest.updatedBy,
    statusHistory: historyMap(statusHistory),
    ...(supplyRefs ? { supplyRefs } : {}),
  };
}

/** The description types `amountSubscription` as a JSON number; empty counts as missing. */
function amountField(value: unknown): number | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'number') throw badRequest('amountSubscription must be a number');
  return value;
}

/** `limit` (1–1000, default 1000: every match up to a page) and `cursor` (`data.nextCursor`): additive. */
function pageOf(req: RestRequest) {
  const limit = queryValue(req, 'limit');
  const first = limit === undefined || limit === '' ? 1000 : /^\d{1,7}$/.test(limit) ? Number(limit) : 0;
  return { first, after: queryValue(req, 'cursor') || null };
}

function listVariables(req: RestRequest, by: { distributorId?: string; investorId?: string }) {
  return {
    filter: {
      ...by,
      flow: 'two_step' as const,
      status: queryValue(req, 'status') || null,
      externalRef: queryValue(req, 'externalRef') || null,
    },
    page: pageOf(req),
  };
}

export const orderTwoStepRoutes = [
  route({
    method: 'POST',
    path: '/orders/subscribe',
    auth: 'host',
    doc: {
      summary: 'Create a priced two-step subscription (`created`): the body with `amountSubscription`',
      body: S.obj(
        {
          distributorId: S.id('DT'),
          investorId: S.id('IN'),
          shareClassId: S.id('SC'),
          amountSubscription: S.num('Fiat amount, >= 0'),
          currency: S.str(),
          externalRef: S.str('Stored verbatim'),
        },
        ['currency', 'externalRef'],
      ),
      data: S.twoStepOrder,
      errors: {
        400: [
          'distributorId is required',
          'investorId is required',
          'shareClassId is required',
          'invalid distributorId format',
          'invalid investorId format',
          'invalid shareClassId format',
          'amountSubscription is required',
          'amountSubscription must be a number',
          'amountSubscription must be >= 0',
          'currency must be one of <codes>',
          'amountSubscription is below the minimum investment of <minimum> <currency>',
        ],
        404: ['distributorId not found', 'investorId not found', 'shareClassId not found'],
        409: [
          'Investor not granted access to <shareClassId>',
          'Share class <shareClassId> has no default chain',
          'No wallet configured for investor on chain <chainId>',
          'No wallet configured for distributor on chain <chainId>',
          ...NOT_TRADING,
          ...NOT_ELIGIBLE,
        ],
      },
    },
    // The two-step flow is the body with `amountSubscription`; the one-step flow sends `amount`.
    when: (req) => subscribeFlow(req.body) === OrderFlow.two_step,
    document: CreateTwoStepSubscriptionDocument,
    variables: (req) => ({
      input: {
        distributorId: req.body.distributorId,
        investorId: req.body.investorId,
        shareClassId: req.body.shareClassId,
        amountSubscription: amountField(req.body.amountSubscription),
        currency: req.body.currency,
        externalRef: req.body.externalRef,
      },
    }),
    data: (r) => orderRecord(r.createTwoStepSubscription),
  }),
  route({
    method: 'GET',
    path: '/orders/subscriptions/distributor/:distributorId',
    auth: 'host',
    doc: {
      summary: "A distributor's two-step orders, newest first",
      params: { distributorId: S.id('DT') },
      query: LIST_QUERY,
      data: LIST_DATA,
      errors: { ...LIST_ERRORS, 404: ['distributorId not found'] },
    },
    document: TwoStepOrderListDocument,
    variables: (req) => listVariables(req, { distributorId: req.params.distributorId }),
    data: (r) => ({
      items: r.orders.items.map((i) => ({ ...i, amountSubscription: moneyNumber(i.amountSubscription), amountPayable: moneyNumber(i.amountPayable) })),
      count: r.orders.items.length,
      nextCursor: r.orders.nextCursor,
    }),
  }),
  route({
    method: 'GET',
    path: '/orders/subscriptions/investor/:investorId',
    auth: 'host',
    doc: {
      summary: "An investor's two-step orders, newest first",
      params: { investorId: S.id('IN') },
      query: LIST_QUERY,
      data: LIST_DATA,
      errors: { ...LIST_ERRORS, 404: ['investorId not found'] },
    },
    document: TwoStepOrderListDocument,
    variables: (req) => listVariables(req, { investorId: req.params.investorId }),
    data: (r) => ({
      items: r.orders.items.map((i) => ({ ...i, amountSubscription: moneyNumber(i.amountSubscription), amountPayable: moneyNumber(i.amountPayable) })),
      count: r.orders.items.length,
      nextCursor: r.orders.nextCursor,
    }),
  }),
  route({
    method: 'POST',
    path: '/orders/subscriptions/push/:orderId',
    auth: 'host',
    callsOut: true,
    doc: {
      summary: 'Push a created order to the supply-side platform',
      description: 'Not idempotent: a second push answers 409 (with the same `Idempotency-Key`, the first answer is replayed instead).',
      params: ORDER_ID,
      data: S.pushResult,
      errors: {
        404: ['order not found'],
        409: ['Cannot push subscription in status "<status>" (only "created")'],
        422: ["<the platform's reason, as it gave it>"],
        // the order is unchanged in each case
        503: [
          'supply-side platform <provider> <is unreachable | timed out | answered unexpectedly>: <detail>',
          'supply-side platform <provider> is not configured',
          'a push of this subscription is in progress; re-read the order',
        ],
      },
    },
    document: PushTwoStepSubscriptionDocument,
    variables: (req) => ({ orderId: req.params.orderId }),
    data: (r) => {
      const o = r.pushTwoStepSubscription;
      return {
        orderId: o.orderId,
        status: o.status,
        updatedAt: o.updatedAt,
        updatedBy: o.updatedBy,
        supplyRefs: o.supplyRefs,
        statusHistory: historyMap(o.statusHistory),
      };
    },
  }),
  route({
    method: 'POST',
    path: '/orders/subscriptions/cancel/:orderId',
    auth: 'host',
    doc: {
      summary: 'Cancel a created order',
      params: ORDER_ID,
      body: S.obj({ note: S.str('Recorded in statusHistory') }, ['note']),
      data: S.twoStepCancelResult,
      errors: { 404: ['order not found'], 409: ['Cannot cancel subscription in status "<status>" (only "created")'] },
    },
    document: CancelTwoStepSubscriptionDocument,
    variables: (req) => ({ orderId: req.params.orderId, note: req.body.note }),
    data: (r) => {
      const o = r.cancelTwoStepSubscription;
      return { orderId: o.orderId, status: o.status, updatedAt: o.updatedAt, statusHistory: historyMap(o.statusHistory) };
    },
  }),
  route({
    method: 'GET',
    path: '/orders/:orderId',
    auth: 'host',
    doc: { summary: 'One two-step order (`OR######`)', params: ORDER_ID, data: S.twoStepOrder, errors: { 404: ['order not found'] } },
    // `OR######` is a two-step order; `ord_…` belongs to the one-step flow's row.
    when: (req) => flowOfOrderId(req.params.orderId) === OrderFlow.two_step,
    document: TwoStepOrderDocument,
    variables: (req) => ({ id: req.params.orderId }),
    data: (r) => orderRecord(r.order),
  }),
];
