import { Order, OrderStatusEntry } from '../../src/modules/order/order.entity';
import type { SupplySimulator } from '../../src/supply/simulator';
import { aFund, aGrant, aMarket, anInvestor, aShareClass, CHAIN } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aClosedPort, aSimulator, aTwoStepOrder, providersFor, SIM } from '../support/order.factories';

/**
 * Surface R, R-two-step (spec/api-description.md "Order record, R-two-step", its states table,
 * "Orders, R-two-step" and the errors table), over HTTP, with the provider simulator as the
 * supply-side platform over a real network exchange.
 * This file: the states table, the supply-side platform unreachable or slow, and isolation between distributors.
 */
describe('Surface R: R-two-step subscriptions, states and the supply-side platform', () => {
  let gw: TestGateway;
  let sim: SupplySimulator;
  let slow: SupplySimulator;
  const NOW = new Date(Date.UTC(2030, 5, 3, 9, 30, 0, 123));

  beforeAll(async () => {
    sim = await aSimulator();
    slow = await aSimulator('slow-sim');
    const deadPort = await aClosedPort();
    gw = await startTestGateway({
      supply: providersFor(sim, {
        'slow-sim': { url: slow.url, timeoutMs: 200 },
        'dead-sim': { url: `http://127.0.0.1:${deadPort}`, timeoutMs: 2_000 },
      }),
    });
  });
  afterAll(async () => {
    await gw.close();
    await sim.stop();
    await slow.stop();
  });
  beforeEach(async () => {
    await gw.reset();
    gw.clock.set(NOW);
    slow.delayMs = 0;
  });

  /** aMarket, with the share class's fund known to the simulator. */
  async function market() {
    const m = await aMarket(gw.em(), NOW);
    sim.addFund(m.shareClass.fund.id);
    const wallet = `0x${m.investor.id.toLowerCase().padStart(40, 'e')}`;
    return { ...m, wallet };
  }

  const history = async (orderId: string) => gw.em().find(OrderStatusEntry, { order: orderId }, { orderBy: { at: 'asc' } });

  describe('states table', () => {
    it('created → push, the platform accepts → submitted, supplyRefs with the literal exchange, updatedBy and a history entry with a note', async () => {
      // given
      const m = await market();
      const created = await aTwoStepOrder(gw, m, { externalRef: 'ext-9' });
      gw.clock.advance(60_000);
      const pushedAt = gw.clock.now().getTime();
      const received = sim.received.length;
      // when
      const res = await gw.api('POST', `/orders/subscriptions/push/${created.orderId}`, { host: m.hostA, headers: { 'x-actor': 'ops-alice' } });
      // then
      expect(res.status).toBe(200);
      const sent = sim.received[received].body;
      const ref = sim.referenceOf(created.orderId)!;
      expect(res.body.data).toEqual({
        orderId: created.orderId,
        status: 'submitted',
        updatedAt: pushedAt,
        updatedBy: 'ops-alice',
        supplyRefs: {
          [SIM]: {
            orderReference: ref,
            submittedAt: pushedAt,
            raw: {
              request: sent,
              response: { status: 'received', orderReference: ref, clientOrderId: created.orderId, receivedAt: expect.any(Number) },
            },
          },
        },
        statusHistory: {
          [String(NOW.getTime())]: { status: 'created', by: 'Network' },
          [String(pushedAt)]: { status: 'submitted', by: 'ops-alice', note: `Pushed to ${SIM}; orderReference ${ref}` },
        },
      });
      expect(sent).toEqual({
        clientOrderId: created.orderId,
        orderType: 'SUBSCRIPTION',
        fundId: m.shareClass.fund.id,
        shareClassId: m.shareClass.id,
        isin: 'LU0000000009',
        distributorId: m.distributor.id,
        investorId: m.investor.id,
        amountSubscription: '1000',
        amountFeesTotal: '1',
        amountPayable: '1001',
        feesSubBps: 10,
        currency: 'USD',
        deliveryMode: 'passthrough',
        deliveryWallet: m.wallet,
        chainId: CHAIN,
        externalRef: 'ext-9',
      });
    });

    it('created → push, the platform rejects → still created, errorMsg carries the upstream reason', async () => {
      const m = await market();
      const unknownFund = await aFund(gw.em());
      const sc = await aShareClass(gw.em(), { fund: unknownFund });
      await aGrant(gw.em(), m.distributor, sc);
      const investor = await anInvestor(gw.em(), m.distributor, { grants: [sc] });
      const created = await aTwoStepOrder(gw, { ...m, investor, shareClass: sc });
      gw.clock.advance(1000);
      const res = await gw.api('POST', `/orders/subscriptions/push/${created.orderId}`, { host: m.hostA });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ isError: true, errorMsg: `Fund ${unknownFund.id} not found`, data: {} });
      const read = await gw.api('GET', `/orders/${created.orderId}`, { host: m.hostA });
      expect(read.body.data).toEqual(created); // unchanged: status, updatedAt, history, no supplyRefs
      // once the platform knows the fund, the order can be pushed
      sim.addFund(unknownFund.id);
      const again = await gw.api('POST', `/orders/subscriptions/push/${created.orderId}`, { host: m.hostA });
      expect(again.body.data.status).toBe('submitted');
    });

    it('created → cancel → cancelled, the optional note recorded in history', async () => {
      const m = await market();
      const a = await aTwoStepOrder(gw, m);
      const b = await aTwoStepOrder(gw, m);
      gw.clock.advance(2000);
      const at = gw.clock.now().getTime();
      const withNote = await gw.api('POST', `/orders/subscriptions/cancel/${a.orderId}`, {
        host: m.hostA,
        body: { note: 'client changed mind' },
        headers: { 'x-actor': 'desk-7' },
      });
      expect(withNote.status).toBe(200);
      expect(withNote.body.data).toEqual({
        orderId: a.orderId,
        status: 'cancelled',
        updatedAt: at,
        statusHistory: {
          [String(NOW.getTime())]: { status: 'created', by: 'Network' },
          [String(at)]: { status: 'cancelled', by: 'desk-7', note: 'client changed mind' },
        },
      });
      const without = await gw.api('POST', `/orders/subscriptions/cancel/${b.orderId}`, { host: m.hostA });
      expect(without.status).toBe(200);
      expect(Object.values(without.body.data.statusHistory)).toEqual([
        { status: 'created', by: 'Network' },
        { status: 'cancelled', by: 'Network' },
      ]);
      const read = await gw.api('GET', `/orders/${a.orderId}`, { host: m.hostA });
      expect(read.body.data).toMatchObject({ status: 'cancelled', updatedBy: 'desk-7' });
    });

    it('submitted → push → 409 `Cannot push subscription in status "submitted" (only "created")`, sent to the platform once', async () => {
      const m = await market();
      const o = await aTwoStepOrder(gw, m);
      await gw.api('POST', `/orders/subscriptions/push/${o.orderId}`, { host: m.hostA });
      const res = await gw.api('POST', `/orders/subscriptions/push/${o.orderId}`, { host: m.hostA });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ isError: true, errorMsg: 'Cannot push subscription in status "submitted" (only "created")', data: {} });
      expect(sim.timesReceived(o.orderId)).toBe(1);
      expect((await history(o.orderId)).map((e) => e.status)).toEqual(['created', 'submitted']);
    });

    it('submitted → cancel → 409 `Cannot cancel subscription in status "submitted" (only "created")`', async () => {
      const m = await market();
      const o = await aTwoStepOrder(gw, m);
      await gw.api('POST', `/orders/subscriptions/push/${o.orderId}`, { host: m.hostA });
      const res = await gw.api('POST', `/orders/subscriptions/cancel/${o.orderId}`, { host: m.hostA, body: { note: 'too late' } });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ isError: true, errorMsg: 'Cannot cancel subscription in status "submitted" (only "created")', data: {} });
      expect((await gw.api('GET', `/orders/${o.orderId}`, { host: m.hostA })).body.data.status).toBe('submitted');
    });

    it('cancelled → push → 409 `Cannot push subscription in status "cancelled" (only "created")`; cancel again is 409 too', async () => {
      const m = await market();
      const o = await aTwoStepOrder(gw, m);
      await gw.api('POST', `/orders/subscriptions/cancel/${o.orderId}`, { host: m.hostA });
      const push = await gw.api('POST', `/orders/subscriptions/push/${o.orderId}`, { host: m.hostA });
      expect(push.status).toBe(409);
      expect(push.body.errorMsg).toBe('Cannot push subscription in status "cancelled" (only "created")');
      const cancel = await gw.api('POST', `/orders/subscriptions/cancel/${o.orderId}`, { host: m.hostA });
      expect(cancel.status).toBe(409);
      expect(cancel.body.errorMsg).toBe('Cannot cancel subscription in status "cancelled" (only "created")');
      expect(sim.timesReceived(o.orderId)).toBe(0);
    });
  });

  describe('the supply-side platform unreachable or slow', () => {
    async function orderOn(provider: string) {
      const m = await market();
      const sc = await aShareClass(gw.em(), { provider });
      await aGrant(gw.em(), m.distributor, sc);
      const investor = await anInvestor(gw.em(), m.distributor, { grants: [sc] });
      return { m, created: await aTwoStepOrder(gw, { ...m, investor, shareClass: sc }) };
    }

    it('unreachable: 503 and the order unchanged', async () => {
      const { m, created } = await orderOn('dead-sim');
      gw.clock.advance(1000);
      const res = await gw.api('POST', `/orders/subscriptions/push/${created.orderId}`, { host: m.hostA });
      expect(res.status).toBe(503);
      expect(res.body.isError).toBe(true);
      expect(res.body.errorMsg).toMatch(/^supply-side platform dead-sim is unreachable/);
      expect((await gw.api('GET', `/orders/${created.orderId}`, { host: m.hostA })).body.data).toEqual(created);
    });

    it('timing out: 503 and the order unchanged; it can be pushed again once the platform answers', async () => {
      const { m, created } = await orderOn('slow-sim');
      slow.delayMs = 1_500; // the gateway gives slow-sim 200 ms
      const res = await gw.api('POST', `/orders/subscriptions/push/${created.orderId}`, { host: m.hostA });
      expect(res.status).toBe(503);
      expect(res.body.errorMsg).toBe('supply-side platform slow-sim timed out: no answer within 200 ms');
      expect((await gw.api('GET', `/orders/${created.orderId}`, { host: m.hostA })).body.data).toEqual(created);
      slow.delayMs = 0;
      const sc = (await gw.em().findOneOrFail(Order, created.orderId, { populate: ['shareClass'] })).shareClass;
      slow.addFund(sc.fund.id);
      const again = await gw.api('POST', `/orders/subscriptions/push/${created.orderId}`, { host: m.hostA });
      expect(again.body.data.status).toBe('submitted');
      // the platform got the same clientOrderId twice and kept one order (idempotency key)
      expect(slow.timesReceived(created.orderId)).toBe(2);
      expect(again.body.data.supplyRefs['slow-sim'].orderReference).toBe(slow.referenceOf(created.orderId));
    });

    it('a provider id that is not configured: 503, order unchanged', async () => {
      const { m, created } = await orderOn('nobody');
      const res = await gw.api('POST', `/orders/subscriptions/push/${created.orderId}`, { host: m.hostA });
      expect(res.status).toBe(503);
      expect(res.body.errorMsg).toBe('supply-side platform nobody is not configured');
      expect((await history(created.orderId)).length).toBe(1);
    });
  });

  describe('isolation', () => {
    it("another distributor's push or cancel answers `order not found` and changes nothing", async () => {
      const m = await market();
      const o = await aTwoStepOrder(gw, m);
      for (const path of [`/orders/subscriptions/push/${o.orderId}`, `/orders/subscriptions/cancel/${o.orderId}`, '/orders/subscriptions/push/OR999999']) {
        const res = await gw.api('POST', path, { host: m.hostB });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ isError: true, errorMsg: 'order not found', data: {} });
      }
      expect((await gw.api('GET', `/orders/${o.orderId}`, { host: m.hostA })).body.data).toEqual(o);
      expect(sim.timesReceived(o.orderId)).toBe(0);
    });
  });
});
