import { NOT_ELIGIBLE, NOT_TRADING, WALLET_FROZEN } from '../openapi/documented-errors';
import { shownId } from '../../src/common/ids';
import { OrderFlow } from '../../src/modules/order/order.entity';
import { flowOfOrderId, subscribeFlow } from '../../src/modules/order/order-flow';
import { decimalNumber } from '../../src/common/money';
import { moneyNumber } from '../shapes';
import {
  CancelOneStepOrderDocument,
  OneStepOrderDocument,
  PlaceOneStepRedemptionDocument,
  PlaceOneStepSubscriptionDocument,
  type RestOneStepOrderFragment,
} from '../generated/graphql';
import { route, type RestRequest, type RouteAuth } from '../route';
import * as S from '../openapi/schemas';
import type { JsonSchema } from '../openapi/schemas';

/** The placement body of a surface: `investorId`/`DT` on R, `userId`/`PT` on O. */
function placementBody(surface: 'R' | 'O', quantity: Record<string, JsonSchema>): JsonSchema {
  const parties: Record<string, JsonSchema> =
    surface === 'O' ? { distributorId: S.id('PT'), userId: S.id('US') } : { distributorId: S.id('DT'), investorId: S.id('IN') };
  const optional = ['currency', 'chainId', 'walletAddress'];
  return S.obj(
    {
      ...parties,
      shareClassId: S.id('SC'),
      ...quantity,
      chainId: S.str('Numeric EVM chain id'),
      // docs/custody.md: the custody rule.
      walletAddress: S.str(
        'A wallet of this investor. An address registered to anyone else is refused (400, `walletAddress is not a wallet of investor …`); one the register does not know is held on the order and settles only once ops whitelisted it for this investor',
      ),
    },
    optional,
  );
}

const PLACEMENT_ERRORS = (surface: 'R' | 'O') => {
  const investorField = surface === 'O' ? 'userId' : 'investorId';
  return {
    400: [
      'distributorId is required',
      `${investorField} is required`,
      'shareClassId is required',
      'invalid distributorId format',
      `invalid ${investorField} format`,
      'invalid shareClassId format',
      'chainId must be a numeric EVM chain id',
      'walletAddress must be a 0x-prefixed 20-byte hex address',
      // The custody rule (docs/custody.md): an address registered to anyone else; never says whose.
      `walletAddress is not a wallet of investor <${investorField}>`,
      'amount must be >= 0',
      'currency must be a currency code',
      'currency must be one of <codes>',
      'amount is below the minimum investment of <minimum> <currency>',
      'tokenCount must be >= 0',
      'tokenCount exceeds holdings',
      'tokenCount exceeds unlocked holdings: <unlocked> unlocked, the rest unlocks on <YYYY-MM-DD>',
    ],
    // The investor is named `investorId` in the answer on either surface (placementParties).
    404: ['distributorId not found', ...(surface === 'O' ? ['userId not found'] : []), 'investorId not found', 'shareClassId not found'],
    // Surface O names the investor by its userId (US…), so does the documented message.
    409: [...NOT_TRADING, ...NOT_ELIGIBLE].map((m) => (surface === 'O' ? m.replace('<investorId>', '<userId>') : m)),
  };
};

/**
 * The one-step order record as the description shows it: `orderId`, `status`, `type`
 * (`subscribe`/`redeem`), `shareClassId`, `investorId`, `distributorId`, `amount` and
 * `currency` (subscription) or `tokenCount` (redemption), `createdAt`, and additively its dealing
 * dates (`dealingDate`, `cutOffAt`, `expectedSettlementDate`) and fees (a subscription's
 * `feesSubBps`, `amountFeesTotal`, `amountPayable`; a redemption's `feesRedBps`); reads add
 * `updatedAt` and, additively, the delivery and settlement facts once known (a redemption's
 * `settlement.amount` is its proceeds, net of `settlement.fees`). Surface O shows the same record
 * with its own ids: `distributorId` `PT######` and `userId` `US######` instead of `investorId`.
 */
export function oneStepOrderRecord(o: RestOneStepOrderFragment, surface: 'R' | 'O', read: boolean) {
  const parties =
    surface === 'O'
      ? { shareClassId: o.shareClassId, userId: o.userId, distributorId: shownId(o.distributorId, 'distributor', 'O') }
      : { shareClassId: o.shareClassId, investorId: o.investorId, distributorId: o.distributorId };
  const quantity =
    o.oneStepType === 'subscribe'
      ? { amount: decimalNumber(o.amount ?? '0'), currency: o.currency, ...subscriptionFeeFields(o) }
      : { tokenCount: decimalNumber(o.tokenCount ?? '0'), feesRedBps: o.feesRedBps ?? null };
  const dealing = { dealingDate: o.dealingDate, cutOffAt: o.cutOffAt, expectedSettlementDate: o.expectedSettlementDate };
  const record: Record<string, unknown> = { orderId: o.id, status: o.status, type: o.oneStepType, ...parties, ...quantity, createdAt: o.createdAt, ...dealing };
  if (!read) return record;
  record.updatedAt = o.updatedAt;
  if (o.chainId != null) record.chainId = o.chainId;
  if (o.walletAddress != null) record.walletAddress = o.walletAddress;
  if (o.settlementNav != null) {
    record.settlement = {
      nav: o.settlementNav,
      tokens: o.settlementTokens,
      amount: o.settlementAmount,
      ...(o.oneStepType === 'redeem' ? { fees: o.amountFeesTotal ?? null } : {}),
      currency: o.currency,
      walletAddress: o.deliveryWallet,
      transferHash: o.transferHash ?? null,
      failureReason: o.failureReason ?? null,
    };
  }
  return record;
}

/** A subscription's fee on top of its amount, as the two-step record shows it (numbers). */
function subscriptionFeeFields(o: RestOneStepOrderFragment) {
  return { feesSubBps: o.feesSubBps ?? null, amountFeesTotal: moneyNumber(o.amountFeesTotal), amountPayable: moneyNumber(o.amountPayable) };
}

const str = (v: unknown) => v as string | undefined;

/** On surface R, `POST /orders/subscribe` without `amountSubscription` is the one-step flow. */
const isOneStepSubscribe = (req: RestRequest) => subscribeFlow(req.body) === OrderFlow.one_step;
/** `GET /orders/:id` for anything but a two-step id: the one-step read answers `order not found` for what is no order's. */
const isOneStepId = (req: RestRequest) => flowOfOrderId(req.params.id) !== OrderFlow.two_step;

/** The one-step rows; surface O serves the same paths with its ids (`surface-o/orders.routes.ts`). */
export function oneStepOrderRoutes(auth: Extract<RouteAuth, 'host' | 'bearer'>) {
  const surface = auth === 'bearer' ? 'O' : 'R';
  const investorField = surface === 'O' ? 'userId' : 'investorId';
  const placement = (req: RestRequest) => ({
    distributorId: str(req.body.distributorId),
    [investorField]: str(req.body[investorField]),
    shareClassId: str(req.body.shareClassId),
    chainId: str(req.body.chainId),
    walletAddress: str(req.body.walletAddress),
  });
  return [
    route({
      method: 'POST',
      path: '/orders/subscribe',
      auth,
      doc: {
        summary: surface === 'O' ? 'Place a subscription (pending)' : 'Place a one-step subscription (pending): the body with `amount`',
        body: placementBody(surface, { amount: S.num('>= 0'), currency: S.str('ISO code; default: the share class currency') }),
        data: S.oneStepOrder(surface, false),
        errors: PLACEMENT_ERRORS(surface),
      },
      when: surface === 'R' ? isOneStepSubscribe : undefined,
      document: PlaceOneStepSubscriptionDocument,
      variables: (req) => ({ input: { ...placement(req), amount: req.body.amount, currency: str(req.body.currency) } }),
      data: (r) => oneStepOrderRecord(r.placeOneStepSubscription, surface, false),
    }),
    route({
      method: 'POST',
      path: '/orders/redeem',
      auth,
      doc: {
        summary: 'Place a redemption in tokens (pending)',
        body: placementBody(surface, { tokenCount: S.num('>= 0 and <= the holding') }),
        data: S.oneStepOrder(surface, false),
        errors: { ...PLACEMENT_ERRORS(surface), 409: [...PLACEMENT_ERRORS(surface)[409], ...WALLET_FROZEN] },
      },
      document: PlaceOneStepRedemptionDocument,
      variables: (req) => ({ input: { ...placement(req), tokenCount: req.body.tokenCount } }),
      data: (r) => oneStepOrderRecord(r.placeOneStepRedemption, surface, false),
    }),
    route({
      method: 'GET',
      path: '/orders/:id',
      auth,
      doc: {
        summary: surface === 'O' ? 'One order' : 'One one-step order (`ord_…`)',
        params: { id: S.str('`ord_<id>`') },
        data: S.oneStepOrder(surface, true),
        errors: { 404: ['order not found'] },
      },
      when: surface === 'R' ? isOneStepId : undefined,
      document: OneStepOrderDocument,
      variables: (req) => ({ id: req.params.id }),
      data: (r) => oneStepOrderRecord(r.oneStepOrder, surface, true),
    }),
    route({
      method: 'POST',
      path: '/orders/cancel/:orderId',
      auth,
      doc: {
        summary: 'Cancel a pending order',
        params: { orderId: S.str('`ord_<id>`') },
        data: S.successMessage,
        errors: { 404: ['order not found'], 409: ['order is no longer cancellable'] },
      },
      document: CancelOneStepOrderDocument,
      variables: (req) => ({ orderId: req.params.orderId }),
      data: (r) => r.cancelOneStepOrder,
    }),
  ];
}

export const orderOneStepRoutes = oneStepOrderRoutes('host');
