import { DeliveryMode } from '../../src/modules/distributor/distributor.entity';
import { InvestorWallet, WalletStatus } from '../../src/modules/investor/investor.entity';
import { Order, OrderStatusEntry } from '../../src/modules/order/order.entity';
import type { SupplySimulator } from '../../src/supply/simulator';
import { aDistributor, aFund, aGrant, aMarket, aNav, anInvestor, aShareClass, CHAIN } from '../support/factories';
import { aDealingCalendar } from '../support/dealing.factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aClosedPort, aSimulator, aTwoStepOrder, providersFor, SIM, subscribeBody } from '../support/order.factories';

/**
 * Surface R, R-two-step (spec/api-description.md "Order record, R-two-step", its states table,
 * "Orders, R-two-step" and the errors table), over HTTP, with the provider simulator as the
 * supply-side platform over a real network exchange.
 */
describe('Surface R: R-two-step subscriptions', () => {
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

  describe('POST /orders/subscribe with amountSubscription', () => {
    it('returns the full priced order record with status created and a statusHistory entry by Network', async () => {
      // given
      const m = await market();
      // when
      const res = await gw.api('POST', '/orders/subscribe', { host: m.hostA, body: subscribeBody(m, { externalRef: '  my-ref/42 ' }) });
      // then
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ isError: false, errorMsg: 'NA' });
      expect(res.body.data).toEqual({
        orderId: expect.stringMatching(/^OR\d{6}$/),
        orderType: 'SUBSCRIPTION',
        status: 'created',
        distributorId: m.distributor.id,
        investorId: m.investor.id,
        shareClassId: m.shareClass.id,
        amountSubscription: 1000,
        amountFeesTotal: 1,
        amountPayable: 1001,
        amountTokensEstimated: '800',
        feesSubBps: 10,
        currency: 'USD',
        deliveryMode: 'passthrough',
        deliveryWallet: m.wallet,
        nav: '1.25',
        navPublishedAt: NOW.getTime() - 60_000,
        externalRef: '  my-ref/42 ',
        // A share class without a dealing calendar: dealt the same weekday (UTC), cut-off at its end, settled the next business day.
        dealingDate: '2030-06-03',
        cutOffAt: Date.UTC(2030, 5, 4),
        expectedSettlementDate: '2030-06-04',
        createdAt: NOW.getTime(),
        createdBy: 'Network',
        updatedAt: NOW.getTime(),
        updatedBy: 'Network',
        statusHistory: { [String(NOW.getTime())]: { status: 'created', by: 'Network' } },
      });
    });

    it('stamps createdBy and the history entry with the x-actor value', async () => {
      const m = await market();
      const res = await gw.api('POST', '/orders/subscribe', { host: m.hostA, body: subscribeBody(m), headers: { 'x-actor': 'desk-7' } });
      expect(res.body.data.createdBy).toBe('desk-7');
      expect(res.body.data.updatedBy).toBe('desk-7');
      expect(Object.values(res.body.data.statusHistory)).toEqual([{ status: 'created', by: 'desk-7' }]);
    });

    it('keys the first statusHistory entry at the order\'s createdAt, with the clock running', async () => {
      const m = await market();
      gw.clock.set(null); // a running clock: the audit stamp at flush comes after the service reads the time
      const res = await gw.api('POST', '/orders/subscribe', { host: m.hostA, body: subscribeBody(m) });
      expect(Object.keys(res.body.data.statusHistory)).toEqual([String(res.body.data.createdAt)]);
    });

    it('allocates OR ids from one sequence: consecutive orders get increasing, distinct ids', async () => {
      const m = await market();
      const a = await aTwoStepOrder(gw, m);
      const b = await aTwoStepOrder(gw, m);
      expect(Number(b.orderId.slice(2))).toBe(Number(a.orderId.slice(2)) + 1);
    });

    describe('pricing', () => {
      it("computes the fee exactly as the description's formula, amountSubscription × feesSubBps / 10000, with no rounding", async () => {
        const m = await market();
        const o1 = await aTwoStepOrder(gw, m, { amountSubscription: 5 }); // 5 × 10 bps = 0.005
        expect([o1.amountFeesTotal, o1.amountPayable]).toEqual([0.005, 5.005]);
        const o2 = await aTwoStepOrder(gw, m, { amountSubscription: 1234.56 });
        expect([o2.amountFeesTotal, o2.amountPayable]).toEqual([1.23456, 1235.79456]);
        const o3 = await aTwoStepOrder(gw, m, { amountSubscription: 0 });
        expect([o3.amountFeesTotal, o3.amountPayable, o3.amountTokensEstimated]).toEqual([0, 0, '0']);
      });

      it('copies feesSubBps from the share class at order time; a later change does not reprice the order', async () => {
        const m = await market();
        const sc = await aShareClass(gw.em(), { feesSubBps: 25 });
        await aGrant(gw.em(), m.distributor, sc);
        await aNav(gw.em(), sc, '1.2345', new Date(NOW.getTime() - 1000));
        const investor = await anInvestor(gw.em(), m.distributor, { grants: [sc] });
        const order = await aTwoStepOrder(gw, { ...m, investor, shareClass: sc }, { amountSubscription: 1234.56 });
        // 1234.56 × 25 / 10000 = 3.0864; tokens 1234.56 / 1.2345 = 1000.0486026731… → 6 decimals, rounded down
        expect(order).toMatchObject({ feesSubBps: 25, amountFeesTotal: 3.0864, amountPayable: 1237.6464, nav: '1.2345', amountTokensEstimated: '1000.048602' });
        const em = gw.em();
        const stored = await em.findOneOrFail(Order, order.orderId, { populate: ['shareClass'] });
        stored.shareClass.feesSubBps = 99;
        await em.flush();
        const read = await gw.api('GET', `/orders/${order.orderId}`, { host: m.hostA });
        expect(read.body.data).toMatchObject({ feesSubBps: 25, amountFeesTotal: 3.0864 });
      });

      it("rounds amountTokensEstimated to the primary token's decimals, never the fee (even in JPY)", async () => {
        const m = await market();
        const sc = await aShareClass(gw.em(), { currency: 'JPY', feesSubBps: 25, tokenDecimals: 0 });
        await aGrant(gw.em(), m.distributor, sc);
        await aNav(gw.em(), sc, '3', new Date(NOW.getTime() - 1000));
        const investor = await anInvestor(gw.em(), m.distributor, { grants: [sc] });
        const order = await aTwoStepOrder(gw, { ...m, investor, shareClass: sc }, { amountSubscription: 12345 });
        // fee 30.8625 as the formula gives it; tokens 4115 exactly; then 1000 / 3 = 333.33… → 333
        expect(order).toMatchObject({ currency: 'JPY', amountFeesTotal: 30.8625, amountPayable: 12375.8625, amountTokensEstimated: '4115' });
        const third = await aTwoStepOrder(gw, { ...m, investor, shareClass: sc }, { amountSubscription: 1000 });
        expect(third.amountTokensEstimated).toBe('333');
      });

      it('prices at the latest NAV by publishedAt', async () => {
        const m = await market();
        await aNav(gw.em(), m.shareClass, '2', new Date(NOW.getTime() - 10_000));
        await aNav(gw.em(), m.shareClass, '4', new Date(NOW.getTime() - 3_600_000));
        const order = await aTwoStepOrder(gw, m);
        expect(order).toMatchObject({ nav: '2', navPublishedAt: NOW.getTime() - 10_000, amountTokensEstimated: '500' });
      });

      it('without a live NAV, nav and amountTokensEstimated are -1 and the order is still created', async () => {
        const m = await market();
        const sc = await aShareClass(gw.em());
        await aGrant(gw.em(), m.distributor, sc);
        const investor = await anInvestor(gw.em(), m.distributor, { grants: [sc] });
        const res = await gw.api('POST', '/orders/subscribe', { host: m.hostA, body: subscribeBody({ ...m, investor, shareClass: sc }) });
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({ status: 'created', nav: '-1', amountTokensEstimated: '-1', navPublishedAt: null, amountFeesTotal: 1, amountPayable: 1001 });
      });

      it('currency defaults to the share class currency; an allowed settlement currency is kept; another is 400', async () => {
        const m = await market();
        expect((await aTwoStepOrder(gw, m)).currency).toBe('USD');
        await aDealingCalendar(gw, m.shareClass.id, { settlementCurrencies: ['USDC'] });
        expect((await aTwoStepOrder(gw, m, { currency: 'USDC' })).currency).toBe('USDC');
        const res = await gw.api('POST', '/orders/subscribe', { host: m.hostA, body: subscribeBody(m, { currency: 'EUR' }) });
        expect([res.status, res.body]).toEqual([400, { isError: true, errorMsg: 'currency must be one of USD, USDC', data: {} }]);
      });
    });

    describe('delivery', () => {
      it("passthrough delivers to the investor's wallet on the share class's defaultChainId", async () => {
        const m = await market();
        expect(await aTwoStepOrder(gw, m)).toMatchObject({ deliveryMode: 'passthrough', deliveryWallet: m.wallet });
      });

      it("hold delivers to the distributor's wallet, following the distributor's grant of the share class", async () => {
        const m = await market();
        const sc = await aShareClass(gw.em());
        await aGrant(gw.em(), m.distributor, sc, DeliveryMode.hold);
        await aNav(gw.em(), sc, '1', new Date(NOW.getTime() - 1000));
        const investor = await anInvestor(gw.em(), m.distributor, { grants: [sc] });
        const order = await aTwoStepOrder(gw, { ...m, investor, shareClass: sc });
        expect(order).toMatchObject({ deliveryMode: 'hold', deliveryWallet: `0x${m.distributor.id.toLowerCase().padStart(40, 'd')}` });
      });
    });

    describe('errors, in the order they are checked', () => {
      it('400 names the first missing required field (empty counts as missing)', async () => {
        const m = await market();
        const cases: Array<[Record<string, unknown>, string]> = [
          [{ amountSubscription: 10 }, 'distributorId is required'],
          [subscribeBody(m, { distributorId: '' }), 'distributorId is required'],
          [subscribeBody(m, { investorId: undefined }), 'investorId is required'],
          [subscribeBody(m, { shareClassId: '  ' }), 'shareClassId is required'],
          [subscribeBody(m, { amountSubscription: null }), 'amountSubscription is required'],
          [subscribeBody(m, { amountSubscription: '' }), 'amountSubscription is required'],
          [subscribeBody(m, { amountSubscription: '100' }), 'amountSubscription must be a number'],
          [subscribeBody(m, { distributorId: 7 }), 'distributorId must be a string'],
        ];
        for (const [body, message] of cases) {
          const res = await gw.api('POST', '/orders/subscribe', { host: m.hostA, body });
          expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { isError: true, errorMsg: message, data: {} } });
        }
      });

      it("404 for an unknown distributor, investor or share class — and for another distributor's", async () => {
        const m = await market();
        const theirInvestor = await anInvestor(gw.em(), m.other, { grants: [m.shareClass] });
        const ungranted = await aShareClass(gw.em());
        const cases: Array<[Record<string, unknown>, string]> = [
          [subscribeBody(m, { distributorId: 'DT999999' }), 'distributorId not found'],
          [subscribeBody(m, { distributorId: m.other.id }), 'distributorId not found'],
          [subscribeBody(m, { investorId: 'IN999999' }), 'investorId not found'],
          [subscribeBody(m, { investorId: theirInvestor.id }), 'investorId not found'],
          [subscribeBody(m, { shareClassId: 'SC999999' }), 'shareClassId not found'],
          [subscribeBody(m, { shareClassId: ungranted.id }), 'shareClassId not found'],
        ];
        for (const [body, message] of cases) {
          const res = await gw.api('POST', '/orders/subscribe', { host: m.hostA, body });
          expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: { isError: true, errorMsg: message, data: {} } });
        }
      });

      it('409 `Investor not granted access to <shareClassId>` when the investor lacks the grant', async () => {
        const m = await market();
        const investor = await anInvestor(gw.em(), m.distributor, { grants: [] });
        const res = await gw.api('POST', '/orders/subscribe', { host: m.hostA, body: subscribeBody({ ...m, investor }, { amountSubscription: -5 }) });
        expect(res.status).toBe(409);
        expect(res.body).toEqual({ isError: true, errorMsg: `Investor not granted access to ${m.shareClass.id}`, data: {} });
      });

      it('409 `No wallet configured for investor on chain <chainId>` without a wallet in use on the default chain', async () => {
        const m = await market();
        const none = await anInvestor(gw.em(), m.distributor, { grants: [m.shareClass], walletChain: null });
        const elsewhere = await anInvestor(gw.em(), m.distributor, { grants: [m.shareClass], walletChain: '1' });
        const removed = await anInvestor(gw.em(), m.distributor, { grants: [m.shareClass], walletStatus: WalletStatus.removed });
        for (const investor of [none, elsewhere, removed]) {
          const res = await gw.api('POST', '/orders/subscribe', { host: m.hostA, body: subscribeBody({ ...m, investor }) });
          expect(res.status).toBe(409);
          expect(res.body).toEqual({ isError: true, errorMsg: `No wallet configured for investor on chain ${CHAIN}`, data: {} });
        }
        // a wallet still pending whitelisting is configured: the whitelist is enforced on-chain
        const pending = await anInvestor(gw.em(), m.distributor, { grants: [m.shareClass], walletStatus: WalletStatus.pending });
        expect((await gw.api('POST', '/orders/subscribe', { host: m.hostA, body: subscribeBody({ ...m, investor: pending }) })).status).toBe(200);
      });

      it('400 `amountSubscription must be >= 0` for a negative amount; 0 is accepted', async () => {
        const m = await market();
        const res = await gw.api('POST', '/orders/subscribe', { host: m.hostA, body: subscribeBody(m, { amountSubscription: -0.01 }) });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ isError: true, errorMsg: 'amountSubscription must be >= 0', data: {} });
        expect(await gw.em().count(Order, {})).toBe(0);
      });
    });
  });

  describe('GET /orders/:orderId', () => {
    it('returns the record with statusHistory, without supplyRefs before the push and with them after', async () => {
      const m = await market();
      const created = await aTwoStepOrder(gw, m);
      const before = await gw.api('GET', `/orders/${created.orderId}`, { host: m.hostA, headers: { 'x-actor': 'ignored-on-reads' } });
      expect(before.status).toBe(200);
      expect(before.body.data).toEqual(created);
      expect(before.body.data).not.toHaveProperty('supplyRefs');
      gw.clock.advance(5_000);
      await gw.api('POST', `/orders/subscriptions/push/${created.orderId}`, { host: m.hostA });
      const after = await gw.api('GET', `/orders/${created.orderId}`, { host: m.hostA });
      expect(after.body.data.status).toBe('submitted');
      expect(after.body.data.supplyRefs[SIM].orderReference).toMatch(/^SIM-/);
      expect(Object.values(after.body.data.statusHistory).map((e: any) => e.status)).toEqual(['created', 'submitted']);
    });

    it("answers 404 `order not found` for an unknown order and for another distributor's", async () => {
      const m = await market();
      const created = await aTwoStepOrder(gw, m);
      for (const [id, host] of [['OR999999', m.hostA], [created.orderId, m.hostB]]) {
        const res = await gw.api('GET', `/orders/${id}`, { host });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ isError: true, errorMsg: 'order not found', data: {} });
      }
    });
  });

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
      const withNote = await gw.api('POST', `/orders/subscriptions/cancel/${a.orderId}`, { host: m.hostA, body: { note: 'client changed mind' }, headers: { 'x-actor': 'desk-7' } });
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

  describe('lists', () => {
    const ITEM_FIELDS = ['amountPayable', 'amountSubscription', 'createdAt', 'investorId', 'orderId', 'orderType', 'shareClassId', 'status'];

    it('GET /orders/subscriptions/distributor/:distributorId returns items with exactly the documented fields, and count', async () => {
      const m = await market();
      const a = await aTwoStepOrder(gw, m, { amountSubscription: 100 });
      gw.clock.advance(1);
      const b = await aTwoStepOrder(gw, m, { amountSubscription: 200 });
      const res = await gw.api('GET', `/orders/subscriptions/distributor/${m.distributor.id}`, { host: m.hostA });
      expect(res.status).toBe(200);
      expect(res.body.data.count).toBe(2);
      expect(res.body.data.nextCursor).toBeNull();
      expect(res.body.data.items).toEqual([
        { orderId: b.orderId, orderType: 'SUBSCRIPTION', status: 'created', investorId: m.investor.id, shareClassId: m.shareClass.id, amountSubscription: 200, amountPayable: 200.2, createdAt: NOW.getTime() + 1 },
        { orderId: a.orderId, orderType: 'SUBSCRIPTION', status: 'created', investorId: m.investor.id, shareClassId: m.shareClass.id, amountSubscription: 100, amountPayable: 100.1, createdAt: NOW.getTime() },
      ]);
      expect(Object.keys(res.body.data.items[0]).sort()).toEqual(ITEM_FIELDS);
    });

    it('filters by status and by externalRef, on both lists', async () => {
      const m = await market();
      const other = await anInvestor(gw.em(), m.distributor, { grants: [m.shareClass] });
      const a = await aTwoStepOrder(gw, m, { externalRef: 'batch-1' });
      const b = await aTwoStepOrder(gw, m, { externalRef: 'batch-2' });
      const c = await aTwoStepOrder(gw, { ...m, investor: other }, { externalRef: 'batch-1' });
      await gw.api('POST', `/orders/subscriptions/cancel/${b.orderId}`, { host: m.hostA });
      await gw.api('POST', `/orders/subscriptions/push/${c.orderId}`, { host: m.hostA });
      const ids = async (path: string) => {
        const res = await gw.api('GET', path, { host: m.hostA });
        expect(res.status).toBe(200);
        expect(res.body.data.count).toBe(res.body.data.items.length);
        return res.body.data.items.map((i: any) => i.orderId).sort();
      };
      const byD = `/orders/subscriptions/distributor/${m.distributor.id}`;
      expect(await ids(`${byD}?status=cancelled`)).toEqual([b.orderId]);
      expect(await ids(`${byD}?status=submitted`)).toEqual([c.orderId]);
      expect(await ids(`${byD}?status=created`)).toEqual([a.orderId]);
      expect(await ids(`${byD}?externalRef=batch-1`)).toEqual([a.orderId, c.orderId].sort());
      expect(await ids(`${byD}?externalRef=batch-1&status=created`)).toEqual([a.orderId]);
      expect(await ids(`${byD}?externalRef=nope`)).toEqual([]);
      const byI = `/orders/subscriptions/investor/${m.investor.id}`;
      expect(await ids(byI)).toEqual([a.orderId, b.orderId].sort());
      expect(await ids(`${byI}?status=cancelled`)).toEqual([b.orderId]);
      expect(await ids(`/orders/subscriptions/investor/${other.id}?externalRef=batch-1`)).toEqual([c.orderId]);
    });

    it('an unknown status value is 400', async () => {
      const m = await market();
      const res = await gw.api('GET', `/orders/subscriptions/distributor/${m.distributor.id}?status=pending`, { host: m.hostA });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ isError: true, errorMsg: 'status must be one of created, submitted, cancelled, accepted, rejected, settled, failed', data: {} });
    });

    it("another distributor's list, or its investor's, answers like a missing one", async () => {
      const m = await market();
      const theirs = await anInvestor(gw.em(), m.other, { grants: [m.shareClass] });
      await aTwoStepOrder(gw, { ...m, distributor: m.other, investor: theirs }, {}, m.hostB);
      const cases: Array<[string, string]> = [
        [`/orders/subscriptions/distributor/${m.other.id}`, 'distributorId not found'],
        ['/orders/subscriptions/distributor/DT999999', 'distributorId not found'],
        [`/orders/subscriptions/investor/${theirs.id}`, 'investorId not found'],
        ['/orders/subscriptions/investor/IN999999', 'investorId not found'],
      ];
      for (const [path, message] of cases) {
        const res = await gw.api('GET', path, { host: m.hostA });
        expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: { isError: true, errorMsg: message, data: {} } });
      }
      // and their own list shows only their own orders
      const own = await gw.api('GET', `/orders/subscriptions/distributor/${m.distributor.id}`, { host: m.hostA });
      expect(own.body.data.count).toBe(0);
    });

    it('returns every match up to 1,000 a page; limit and cursor page through all of them without gaps or repeats', async () => {
      const m = await market();
      const placed: string[] = [];
      for (let i = 0; i < 7; i++) {
        placed.push((await aTwoStepOrder(gw, m)).orderId);
        if (i % 3 === 0) gw.clock.advance(1); // some share a createdAt: the id breaks the tie
      }
      const all = await gw.api('GET', `/orders/subscriptions/distributor/${m.distributor.id}`, { host: m.hostA });
      expect(all.body.data.count).toBe(7);
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const q: string = `limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const res: any = await gw.api('GET', `/orders/subscriptions/distributor/${m.distributor.id}?${q}`, { host: m.hostA });
        expect(res.body.data.count).toBe(res.body.data.items.length);
        seen.push(...res.body.data.items.map((i: any) => i.orderId));
        cursor = res.body.data.nextCursor;
        pages++;
      } while (cursor);
      expect(pages).toBe(3);
      expect(seen).toEqual(all.body.data.items.map((i: any) => i.orderId));
      expect([...seen].sort()).toEqual([...placed].sort());
      for (const bad of ['limit=0', 'limit=1001', 'limit=abc']) {
        const res = await gw.api('GET', `/orders/subscriptions/distributor/${m.distributor.id}?${bad}`, { host: m.hostA });
        expect(res.status).toBe(400);
        expect(res.body.errorMsg).toBe('limit must be an integer from 1 to 1000');
      }
      const badCursor = await gw.api('GET', `/orders/subscriptions/distributor/${m.distributor.id}?cursor=zzz`, { host: m.hostA });
      expect(badCursor.body).toEqual({ isError: true, errorMsg: 'invalid cursor', data: {} });
    });
  });

  it('removing the wallet after creation does not change an existing order', async () => {
    const m = await market();
    const o = await aTwoStepOrder(gw, m);
    const em = gw.em();
    const w = await em.findOneOrFail(InvestorWallet, { investor: m.investor.id });
    w.status = WalletStatus.removed;
    await em.flush();
    expect((await gw.api('GET', `/orders/${o.orderId}`, { host: m.hostA })).body.data.deliveryWallet).toBe(m.wallet);
  });

  it('a distributor without its own wallet on the chain cannot take hold delivery', async () => {
    const m = await market();
    const bare = await aDistributor(gw.em(), ['dist-c.test']);
    const em = gw.em();
    await em.nativeDelete('DistributorWallet', { distributor: bare.id });
    const sc = await aShareClass(gw.em());
    await aGrant(gw.em(), bare, sc, DeliveryMode.hold);
    const investor = await anInvestor(gw.em(), bare, { grants: [sc] });
    const res = await gw.api('POST', '/orders/subscribe', { host: 'dist-c.test', body: subscribeBody({ ...m, distributor: bare, investor, shareClass: sc }) });
    expect(res.status).toBe(409);
    expect(res.body.errorMsg).toBe(`No wallet configured for distributor on chain ${CHAIN}`);
  });
});
