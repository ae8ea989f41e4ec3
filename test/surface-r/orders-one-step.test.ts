import { decimalString } from '../../src/common/money';
import { Order, OrderStatusEntry } from '../../src/modules/order/order.entity';
import { aHolding, aMarket, aShareClass } from '../support/factories';
import { aDealingCalendar } from '../support/dealing.factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aOneStepOrder } from '../support/one-step.factories';

const T0 = new Date(Date.UTC(2031, 2, 3, 10, 0, 0));
/** T0 is a Monday: without a dealing calendar an order is dealt that day, cut-off at its end (UTC), settled Tuesday. */
const DEALING_DATES = { dealingDate: '2031-03-03', cutOffAt: Date.UTC(2031, 2, 4), expectedSettlementDate: '2031-03-04' };

describe('Surface R, one-step flow: placement and reads', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());
  beforeEach(async () => {
    await gw.reset();
    gw.clock.set(T0);
  });

  const market = () => aMarket(gw.em(), gw.clock.now());

  /** An ops-console mutation on a one-step order; returns the GraphQL response. */
  async function ops(field: 'acceptOneStepOrder' | 'rejectOneStepOrder' | 'settleOneStepOrder' | 'failOneStepOrder', orderId: string, args = '') {
    return gw.graphql(
      `mutation($id: ID!) { ${field}(orderId: $id${args}) { id status settlementNav settlementTokens settlementAmount transferHash failureReason deliveryWallet } }`,
      { id: orderId },
      { token: await gw.opsToken() },
    );
  }

  const subscribeBody = (m: Awaited<ReturnType<typeof market>>, over: Record<string, unknown> = {}) => ({
    distributorId: m.distributor.id,
    investorId: m.investor.id,
    shareClassId: m.shareClass.id,
    amount: 1000,
    ...over,
  });

  describe('(none) → pending: POST /orders/subscribe and POST /orders/redeem', () => {
    it('POST /orders/subscribe with `amount` returns the pending subscription with exactly the described fields', async () => {
      const m = await market();
      const res = await gw.api('POST', '/orders/subscribe', { host: m.hostA, body: subscribeBody(m, { amount: 1000.5 }) });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ isError: false, errorMsg: 'NA' });
      expect(res.body.data).toEqual({
        orderId: expect.stringMatching(/^ord_[0-9a-f]{24}$/),
        status: 'pending',
        type: 'subscribe',
        shareClassId: m.shareClass.id,
        investorId: m.investor.id,
        distributorId: m.distributor.id,
        amount: 1000.5,
        currency: 'USD',
        feesSubBps: 10,
        amountFeesTotal: 1.0005,
        amountPayable: 1001.5005,
        createdAt: T0.getTime(),
        ...DEALING_DATES,
      });
    });

    it('a subscription carries its fee on top, by the two-step formula: amount × feesSubBps / 10000 unrounded, payable = amount + fee', async () => {
      const m = await market();
      await gw.graphql(
        `mutation($id: ID!) { updateShareClass(id: $id, input: { feesSubBps: 15 }) { id } }`,
        { id: m.shareClass.id },
        { token: await gw.opsToken() },
      );
      const res = await gw.api('POST', '/orders/subscribe', { host: m.hostA, body: subscribeBody(m, { amount: 12345 }) });
      expect(res.body.data).toMatchObject({ amount: 12345, feesSubBps: 15, amountFeesTotal: 18.5175, amountPayable: 12363.5175 });
      const stored = await gw.em().findOneOrFail(Order, { id: res.body.data.orderId });
      expect([stored.feesSubBps, decimalString(stored.amountFeesTotal!), decimalString(stored.amountPayable!)]).toEqual([15, '18.5175', '12363.5175']);
      // the same order read back, on GraphQL too
      expect((await gw.api('GET', `/orders/${stored.id}`, { host: m.hostA })).body.data).toMatchObject({
        feesSubBps: 15,
        amountFeesTotal: 18.5175,
        amountPayable: 12363.5175,
      });
      const gql = await gw.graphql(
        `query($id: ID!) { order(id: $id) { feesSubBps amountFeesTotal amountPayable } }`,
        { id: stored.id },
        { token: await gw.opsToken() },
      );
      expect(gql.body.data.order).toEqual({ feesSubBps: 15, amountFeesTotal: '18.5175', amountPayable: '12363.5175' });
    });

    it('a subscription keeps an allowed currency sent (upper-cased), and the optional chainId and walletAddress', async () => {
      const m = await market();
      await aDealingCalendar(gw, m.shareClass.id, { settlementCurrencies: ['USDC'] });
      const wallet = `0x${'1'.repeat(40)}`;
      const res = await gw.api('POST', '/orders/subscribe', {
        host: m.hostA,
        body: subscribeBody(m, { currency: 'usdc', chainId: '1', walletAddress: wallet }),
      });
      expect(res.status).toBe(200);
      expect(res.body.data.currency).toBe('USDC');
      const read = await gw.api('GET', `/orders/${res.body.data.orderId}`, { host: m.hostA });
      expect(read.body.data).toMatchObject({ chainId: '1', walletAddress: wallet });
    });

    it('POST /orders/redeem returns the pending redemption with tokenCount and no amount', async () => {
      const m = await market();
      await aHolding(gw.em(), m.investor, m.shareClass, '50');
      const res = await gw.api('POST', '/orders/redeem', {
        host: m.hostA,
        body: { distributorId: m.distributor.id, investorId: m.investor.id, shareClassId: m.shareClass.id, tokenCount: 12.5 },
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        orderId: expect.stringMatching(/^ord_/),
        status: 'pending',
        type: 'redeem',
        shareClassId: m.shareClass.id,
        investorId: m.investor.id,
        distributorId: m.distributor.id,
        tokenCount: 12.5,
        feesRedBps: 5,
        createdAt: T0.getTime(),
        ...DEALING_DATES,
      });
    });

    it('placement appends the first history entry, by `Network` or the x-actor value', async () => {
      const m = await market();
      const a = await gw.api('POST', '/orders/subscribe', { host: m.hostA, body: subscribeBody(m) });
      const b = await gw.api('POST', '/orders/subscribe', { host: m.hostA, body: subscribeBody(m), headers: { 'x-actor': 'desk-7' } });
      const history = async (id: string) => (await gw.em().find(OrderStatusEntry, { order: id })).map((e) => [e.status, e.by, e.at.getTime()]);
      expect(await history(a.body.data.orderId)).toEqual([['pending', 'Network', T0.getTime()]]);
      expect(await history(b.body.data.orderId)).toEqual([['pending', 'desk-7', T0.getTime()]]);
    });

    it.each([
      ['distributorId', { distributorId: '' }],
      ['investorId', { investorId: undefined }],
      ['shareClassId', { shareClassId: null }],
      ['amount', { amount: undefined }],
    ])('a missing %s is 400 `<field> is required`', async (field, over) => {
      const m = await market();
      const res = await gw.api('POST', '/orders/subscribe', { host: m.hostA, body: subscribeBody(m, over) });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ isError: true, errorMsg: `${field} is required`, data: {} });
    });

    it('a negative amount is 400 `amount must be >= 0`; zero is accepted', async () => {
      const m = await market();
      const neg = await gw.api('POST', '/orders/subscribe', { host: m.hostA, body: subscribeBody(m, { amount: -0.01 }) });
      expect(neg.status).toBe(400);
      expect(neg.body).toEqual({ isError: true, errorMsg: 'amount must be >= 0', data: {} });
      const zero = await gw.api('POST', '/orders/subscribe', { host: m.hostA, body: subscribeBody(m, { amount: 0 }) });
      expect(zero.status).toBe(200);
    });

    it('an amount that is not a number is 400 `amount must be a number`', async () => {
      const m = await market();
      const res = await gw.api('POST', '/orders/subscribe', { host: m.hostA, body: subscribeBody(m, { amount: 'lots' }) });
      expect(res.status).toBe(400);
      expect(res.body.errorMsg).toBe('amount must be a number');
    });

    it('a negative tokenCount is 400 `tokenCount must be >= 0`', async () => {
      const m = await market();
      const res = await gw.api('POST', '/orders/redeem', {
        host: m.hostA,
        body: { distributorId: m.distributor.id, investorId: m.investor.id, shareClassId: m.shareClass.id, tokenCount: -1 },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ isError: true, errorMsg: 'tokenCount must be >= 0', data: {} });
    });

    it('a tokenCount above the holding, or above what open redemptions leave of it, is 400 `tokenCount exceeds holdings`', async () => {
      const m = await market();
      await aHolding(gw.em(), m.investor, m.shareClass, '100');
      const redeem = (tokenCount: number) =>
        gw.api('POST', '/orders/redeem', {
          host: m.hostA,
          body: { distributorId: m.distributor.id, investorId: m.investor.id, shareClassId: m.shareClass.id, tokenCount },
        });
      const tooMany = await redeem(100.000001);
      expect(tooMany.status).toBe(400);
      expect(tooMany.body).toEqual({ isError: true, errorMsg: 'tokenCount exceeds holdings', data: {} });
      expect((await redeem(60)).status).toBe(200); // 40 left
      expect((await redeem(41)).body.errorMsg).toBe('tokenCount exceeds holdings');
      expect((await redeem(40)).status).toBe(200);
    });

    it('a cancelled or rejected redemption gives its tokens back to what can be redeemed', async () => {
      const m = await market();
      await aHolding(gw.em(), m.investor, m.shareClass, '100');
      await aOneStepOrder(gw, m, { type: 'redeem', tokenCount: '70', stage: 'cancelled' });
      await aOneStepOrder(gw, m, { type: 'redeem', tokenCount: '30', stage: 'rejected' });
      const res = await gw.api('POST', '/orders/redeem', {
        host: m.hostA,
        body: { distributorId: m.distributor.id, investorId: m.investor.id, shareClassId: m.shareClass.id, tokenCount: 100 },
      });
      expect(res.status).toBe(200);
    });

    it('an investor without a holding can redeem nothing but zero tokens', async () => {
      const m = await market();
      const body = { distributorId: m.distributor.id, investorId: m.investor.id, shareClassId: m.shareClass.id };
      expect((await gw.api('POST', '/orders/redeem', { host: m.hostA, body: { ...body, tokenCount: 1 } })).body.errorMsg).toBe('tokenCount exceeds holdings');
      expect((await gw.api('POST', '/orders/redeem', { host: m.hostA, body: { ...body, tokenCount: 0 } })).status).toBe(200);
    });

    it('unknown investor, distributor or share class are 404 with the described messages', async () => {
      const m = await market();
      const ungranted = await aShareClass(gw.em());
      const cases: [Record<string, unknown>, string][] = [
        [{ investorId: 'IN999999' }, 'investorId not found'],
        [{ distributorId: 'DT999999' }, 'distributorId not found'],
        [{ shareClassId: 'SC999999' }, 'shareClassId not found'],
        [{ shareClassId: ungranted.id }, 'shareClassId not found'],
      ];
      for (const [over, message] of cases) {
        for (const path of ['/orders/subscribe', '/orders/redeem']) {
          const res = await gw.api('POST', path, { host: m.hostA, body: { ...subscribeBody(m, over), tokenCount: 0 } });
          expect([path, res.status, res.body]).toEqual([path, 404, { isError: true, errorMsg: message, data: {} }]);
        }
      }
    });

    it('a malformed chainId or walletAddress is 400', async () => {
      const m = await market();
      const chain = await gw.api('POST', '/orders/subscribe', { host: m.hostA, body: subscribeBody(m, { chainId: 'mainnet' }) });
      expect(chain.body).toEqual({ isError: true, errorMsg: 'chainId must be a numeric EVM chain id', data: {} });
      const wallet = await gw.api('POST', '/orders/subscribe', { host: m.hostA, body: subscribeBody(m, { walletAddress: '0x123' }) });
      expect(wallet.body).toEqual({ isError: true, errorMsg: 'walletAddress must be a 0x-prefixed 20-byte hex address', data: {} });
    });
  });

  describe('where the paths meet (one rule picks the flow from the body)', () => {
    it('POST /orders/subscribe with `amountSubscription` is not the one-step flow: no one-step order is placed', async () => {
      const m = await market();
      const res = await gw.api('POST', '/orders/subscribe', { host: m.hostA, body: { ...subscribeBody(m), amount: undefined, amountSubscription: 1000 } });
      expect(res.body.data?.type).toBeUndefined();
      expect(await gw.em().count(Order, { flow: 'one_step' as never })).toBe(0);
    });
  });

  describe('GET /orders/:id', () => {
    it('returns the order including updatedAt, which moves with each change', async () => {
      const m = await market();
      const placed = await gw.api('POST', '/orders/subscribe', { host: m.hostA, body: subscribeBody(m) });
      const id = placed.body.data.orderId;
      const first = await gw.api('GET', `/orders/${id}`, { host: m.hostA });
      expect(first.status).toBe(200);
      expect(first.body.data).toEqual({ ...placed.body.data, updatedAt: T0.getTime() });
      gw.clock.advance(5_000);
      await ops('acceptOneStepOrder', id);
      const second = await gw.api('GET', `/orders/${id}`, { host: m.hostA });
      expect(second.body.data).toMatchObject({ status: 'accepted', createdAt: T0.getTime(), updatedAt: T0.getTime() + 5_000 });
      expect(second.body.data.settlement).toEqual({
        nav: '1.25',
        tokens: '800',
        amount: '1000',
        currency: 'USD',
        walletAddress: `0x${m.investor.id.toLowerCase().padStart(40, 'e')}`,
        transferHash: null,
        failureReason: null,
      });
    });

    it('an unknown order id is 404 `order not found`', async () => {
      const m = await market();
      for (const id of ['ord_000000000000000000000000', 'ord_x', 'nonsense']) {
        const res = await gw.api('GET', `/orders/${id}`, { host: m.hostA });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ isError: true, errorMsg: 'order not found', data: {} });
      }
    });
  });
});
