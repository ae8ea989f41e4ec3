import { decimalString } from '../../src/common/money';
import { DomainEvent } from '../../src/events/event.entity';
import { Holding } from '../../src/modules/holding/holding.entity';
import { InvestorWallet, WalletStatus } from '../../src/modules/investor/investor.entity';
import { Order, OrderStatusEntry } from '../../src/modules/order/order.entity';
import { aGrant, aHolding, aMarket, aNav, anInvestor, aShareClass, CHAIN } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aDealingDateNav, aOneStepOrder, TRANSFER_HASH } from '../support/one-step.factories';

const T0 = new Date(Date.UTC(2031, 2, 3, 10, 0, 0));

describe('Surface R, one-step flow: cancellation and the out-of-band lifecycle (accept, reject, settle, fail)', () => {
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

  const webhookEvents = async (orderId: string) =>
    (await gw.em().find(DomainEvent, { aggregateId: orderId, type: 'order.transition' }, { orderBy: { position: 'asc' } })).map((e) => e.payload.webhookEvent);

  const balanceOf = async (m: Awaited<ReturnType<typeof market>>) => {
    const holding = await gw.em().findOne(Holding, { investor: m.investor.id, shareClass: m.shareClass.id });
    return holding ? decimalString(holding.balance) : undefined;
  };

  describe('pending → accepted | rejected (administrator decision, out-of-band, through the ops console)', () => {
    it('accepting prices a subscription at the live NAV: tokens = amount / NAV, rounded down to the token decimals; event order.accepted', async () => {
      const m = await market();
      await aNav(gw.em(), m.shareClass, '3', new Date(T0.getTime() - 1_000));
      const order = await aOneStepOrder(gw, m, { amount: '100' });
      gw.clock.advance(1_000);
      const res = await ops('acceptOneStepOrder', order.id);
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.acceptOneStepOrder).toMatchObject({
        status: 'accepted',
        settlementNav: '3',
        settlementTokens: '33.333333',
        settlementAmount: '100',
      });
      expect(await webhookEvents(order.id)).toEqual([null, 'order.accepted']);
    });

    it('accepting a redemption pays tokens × NAV − tokens × NAV × feesRedBps / 10000, rounded down to cents; the fee is on the order', async () => {
      const m = await market();
      await aHolding(gw.em(), m.investor, m.shareClass, '20');
      const order = await aOneStepOrder(gw, m, { type: 'redeem', tokenCount: '10.555' });
      const res = await ops('acceptOneStepOrder', order.id);
      // 10.555 × 1.25 = 13.19375; fee at 5 bps = 0.006596875; proceeds 13.187153125 → 13.18
      expect(res.body.data.acceptOneStepOrder).toMatchObject({
        status: 'accepted',
        settlementNav: '1.25',
        settlementTokens: '10.555',
        settlementAmount: '13.18',
      });
      const read = await gw.api('GET', `/orders/${order.id}`, { host: m.hostA });
      expect(read.body.data).toMatchObject({ feesRedBps: 5, settlement: { nav: '1.25', tokens: '10.555', amount: '13.18', fees: '0.006596875' } });
      const gql = await gw.graphql(
        `query($id: ID!) { order(id: $id) { feesRedBps amountFeesTotal settlementAmount } }`,
        { id: order.id },
        { token: await gw.opsToken() },
      );
      expect(gql.body.data.order).toEqual({ feesRedBps: 5, amountFeesTotal: '0.006596875', settlementAmount: '13.18' });
    });

    it('the redemption fee is the one of placement: a later change of the share class does not reprice an order already placed', async () => {
      const m = await market();
      await aHolding(gw.em(), m.investor, m.shareClass, '20');
      const order = await aOneStepOrder(gw, m, { type: 'redeem', tokenCount: '8' });
      await gw.graphql(
        `mutation($id: ID!) { updateShareClass(id: $id, input: { feesRedBps: 100 }) { id } }`,
        { id: m.shareClass.id },
        { token: await gw.opsToken() },
      );
      const res = await ops('acceptOneStepOrder', order.id);
      // 8 × 1.25 = 10 at 5 bps: fee 0.005, proceeds 9.995 → 9.99
      expect(res.body.data.acceptOneStepOrder.settlementAmount).toBe('9.99');
    });

    it('rejecting declines the order: status rejected, event order.rejected, and nothing further can happen to it', async () => {
      const m = await market();
      const order = await aOneStepOrder(gw, m);
      const res = await ops('rejectOneStepOrder', order.id, ', reason: "missed cut-off"');
      expect(res.body.data.rejectOneStepOrder.status).toBe('rejected');
      expect(await webhookEvents(order.id)).toEqual([null, 'order.rejected']);
      const again = await ops('acceptOneStepOrder', order.id);
      expect(again.body.errors![0]).toMatchObject({ message: 'Cannot accept order in status "rejected" (only "pending")', extensions: { code: 'CONFLICT' } });
      const cancel = await gw.api('POST', `/orders/cancel/${order.id}`, { host: m.hostA });
      expect(cancel.status).toBe(409);
    });

    it('an order cannot be accepted twice', async () => {
      const m = await market();
      const order = await aOneStepOrder(gw, m, { stage: 'accepted' });
      const res = await ops('acceptOneStepOrder', order.id);
      expect(res.body.errors![0].message).toBe('Cannot accept order in status "accepted" (only "pending")');
    });

    it('acceptance needs chainId and walletAddress on the order or the investor profile', async () => {
      const m = await market();
      const walletless = await anInvestor(gw.em(), m.distributor, { walletChain: null });
      const order = await aOneStepOrder(gw, { ...m, investor: walletless });
      const refused = await ops('acceptOneStepOrder', order.id);
      expect(refused.body.errors![0]).toMatchObject({
        message: 'chainId and walletAddress are required (on the order or the investor profile) before settlement',
        extensions: { code: 'CONFLICT' },
      });
      const withWallet = await aOneStepOrder(gw, { ...m, investor: walletless }, { chainId: CHAIN, walletAddress: `0x${'2'.repeat(40)}` });
      expect((await ops('acceptOneStepOrder', withWallet.id)).body.data.acceptOneStepOrder.status).toBe('accepted');
    });

    it('without a live NAV an order cannot be accepted', async () => {
      const m = await market();
      const bare = await aShareClass(gw.em());
      await aGrant(gw.em(), m.distributor, bare);
      const order = await aOneStepOrder(gw, { ...m, shareClass: bare });
      const res = await ops('acceptOneStepOrder', order.id);
      expect(res.body.errors![0]).toMatchObject({ message: 'No NAV published', extensions: { code: 'CONFLICT' } });
    });

    it('a distributor cannot decide its own orders: the ops mutations refuse anyone but ops', async () => {
      const m = await market();
      const order = await aOneStepOrder(gw, m);
      const anon = await gw.graphql(`mutation($id: ID!) { acceptOneStepOrder(orderId: $id) { status } }`, { id: order.id });
      expect(anon.body.errors![0].extensions.code).toBe('UNAUTHENTICATED');
      expect((await gw.em().findOneOrFail(Order, order.id)).status).toBe('pending');
    });
  });

  describe('accepted → settled | failed (token transfer)', () => {
    it('a completed transfer settles a subscription: holdings grow by the minted tokens, the hash is recorded, event token.transfer_completed', async () => {
      const m = await market();
      await aHolding(gw.em(), m.investor, m.shareClass, '5');
      const order = await aOneStepOrder(gw, m, { amount: '1000', stage: 'accepted' });
      await aDealingDateNav(gw, order);
      const res = await ops('settleOneStepOrder', order.id, `, transferHash: "${TRANSFER_HASH}"`);
      expect(res.body.data.settleOneStepOrder).toMatchObject({ status: 'settled', transferHash: TRANSFER_HASH });
      expect(await balanceOf(m)).toBe('805');
      expect(await webhookEvents(order.id)).toEqual([null, 'order.accepted', 'token.transfer_completed']);
      const holdingEvents = await gw.em().find(DomainEvent, { type: 'holding.changed' });
      expect(holdingEvents.map((e) => e.payload)).toEqual([
        expect.objectContaining({ orderId: order.id, change: '800', balance: '805', transferHash: TRANSFER_HASH }),
      ]);
    });

    it('a first subscription creates the holding', async () => {
      const m = await market();
      const order = await aOneStepOrder(gw, m, { amount: '10', stage: 'accepted' });
      await aDealingDateNav(gw, order);
      await ops('settleOneStepOrder', order.id, `, transferHash: "${TRANSFER_HASH}"`);
      expect(await balanceOf(m)).toBe('8');
    });

    it('a settled redemption burns its tokens from the holding', async () => {
      const m = await market();
      await aHolding(gw.em(), m.investor, m.shareClass, '100');
      const order = await aOneStepOrder(gw, m, { type: 'redeem', tokenCount: '40', stage: 'accepted' });
      await aDealingDateNav(gw, order);
      await ops('settleOneStepOrder', order.id, `, transferHash: "${TRANSFER_HASH}"`);
      expect(await balanceOf(m)).toBe('60');
      const read = await gw.api('GET', `/orders/${order.id}`, { host: m.hostA });
      expect(read.body.data).toMatchObject({ status: 'settled', settlement: { tokens: '40', amount: '49.97', fees: '0.025', transferHash: TRANSFER_HASH } }); // 50 less 5 bps
    });

    it('a failed transfer records the reason, leaves holdings unchanged and emits token.transfer_failed', async () => {
      const m = await market();
      await aHolding(gw.em(), m.investor, m.shareClass, '100');
      const order = await aOneStepOrder(gw, m, { type: 'redeem', tokenCount: '40', stage: 'accepted' });
      const res = await ops('failOneStepOrder', order.id, ', reason: "reverted: out of gas"');
      expect(res.body.data.failOneStepOrder).toMatchObject({ status: 'failed', failureReason: 'reverted: out of gas' });
      expect(await balanceOf(m)).toBe('100');
      expect(await webhookEvents(order.id)).toEqual([null, 'order.accepted', 'token.transfer_failed']);
    });

    it('settling to a wallet removed from the whitelist fails cleanly: status failed with the reason, holdings unchanged', async () => {
      const m = await market();
      const order = await aOneStepOrder(gw, m, { stage: 'accepted' });
      const em = gw.em();
      const wallet = await em.findOneOrFail(InvestorWallet, { investor: m.investor.id });
      wallet.status = WalletStatus.removed;
      await em.flush();
      await aDealingDateNav(gw, order);
      const res = await ops('settleOneStepOrder', order.id, `, transferHash: "${TRANSFER_HASH}"`);
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.settleOneStepOrder).toMatchObject({
        status: 'failed',
        failureReason: `wallet ${wallet.address} is not whitelisted on chain ${CHAIN}`,
      });
      expect(await balanceOf(m)).toBeUndefined();
      expect(await webhookEvents(order.id)).toEqual([null, 'order.accepted', 'token.transfer_failed']);
    });

    it('tokens never land on a wallet that was never whitelisted', async () => {
      const m = await market();
      const order = await aOneStepOrder(gw, m, { stage: 'accepted', walletAddress: `0x${'3'.repeat(40)}` });
      await aDealingDateNav(gw, order);
      const res = await ops('settleOneStepOrder', order.id, `, transferHash: "${TRANSFER_HASH}"`);
      expect(res.body.data.settleOneStepOrder.status).toBe('failed');
      expect(await balanceOf(m)).toBeUndefined();
    });

    it('only an accepted order settles or fails; a malformed transfer hash is refused', async () => {
      const m = await market();
      const pending = await aOneStepOrder(gw, m);
      expect((await ops('settleOneStepOrder', pending.id, `, transferHash: "${TRANSFER_HASH}"`)).body.errors![0].message).toBe(
        'Cannot settle order in status "pending" (only "accepted")',
      );
      expect((await ops('failOneStepOrder', pending.id, ', reason: "x"')).body.errors![0].message).toBe(
        'Cannot fail order in status "pending" (only "accepted")',
      );
      const accepted = await aOneStepOrder(gw, m, { stage: 'accepted' });
      expect((await ops('settleOneStepOrder', accepted.id, ', transferHash: "0x12"')).body.errors![0].message).toBe(
        'transferHash must be a 0x-prefixed 32-byte hex string',
      );
    });

    it('every transition is in the order history with its actor and time', async () => {
      const m = await market();
      const placed = await gw.api('POST', '/orders/subscribe', { host: m.hostA, body: subscribeBody(m) });
      const id = placed.body.data.orderId;
      gw.clock.advance(1_000);
      await ops('acceptOneStepOrder', id);
      gw.clock.advance(1_000);
      await aDealingDateNav(gw, { id });
      await ops('settleOneStepOrder', id, `, transferHash: "${TRANSFER_HASH}"`);
      const history = await gw.em().find(OrderStatusEntry, { order: id }, { orderBy: { at: 'asc' } });
      expect(history.map((e) => [e.status, e.by, e.at.getTime()])).toEqual([
        ['pending', 'Network', T0.getTime()],
        ['accepted', 'test-ops', T0.getTime() + 1_000],
        ['settled', 'test-ops', T0.getTime() + 2_000],
      ]);
    });
  });

  describe('POST /orders/cancel/:orderId', () => {
    it('pending → cancelled: data.success true and a message', async () => {
      const m = await market();
      const order = await aOneStepOrder(gw, m);
      const res = await gw.api('POST', `/orders/cancel/${order.id}`, { host: m.hostA });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ isError: false, errorMsg: 'NA', data: { success: true, message: 'order cancelled' } });
      const read = await gw.api('GET', `/orders/${order.id}`, { host: m.hostA });
      expect(read.body.data.status).toBe('cancelled');
    });

    it('after acceptance: 409 `order is no longer cancellable`, order unchanged', async () => {
      const m = await market();
      const order = await aOneStepOrder(gw, m, { stage: 'accepted' });
      const res = await gw.api('POST', `/orders/cancel/${order.id}`, { host: m.hostA });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ isError: true, errorMsg: 'order is no longer cancellable', data: {} });
      expect((await gw.em().findOneOrFail(Order, order.id)).status).toBe('accepted');
    });

    it.each(['settled', 'failed', 'cancelled'] as const)('a %s order is no longer cancellable either', async (stage) => {
      const m = await market();
      await aHolding(gw.em(), m.investor, m.shareClass, '0');
      const order = await aOneStepOrder(gw, m, { stage });
      const res = await gw.api('POST', `/orders/cancel/${order.id}`, { host: m.hostA });
      expect(res.status).toBe(409);
      expect(res.body.errorMsg).toBe('order is no longer cancellable');
    });

    it('an unknown order is 404 `order not found`', async () => {
      const m = await market();
      const res = await gw.api('POST', '/orders/cancel/ord_ffffffffffffffffffffffff', { host: m.hostA });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ isError: true, errorMsg: 'order not found', data: {} });
    });
  });
});
