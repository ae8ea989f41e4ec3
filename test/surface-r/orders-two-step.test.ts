import { DeliveryMode } from '../../src/modules/distributor/distributor.entity';
import { InvestorWallet, WalletStatus } from '../../src/modules/investor/investor.entity';
import { Order } from '../../src/modules/order/order.entity';
import type { SupplySimulator } from '../../src/supply/simulator';
import { aDistributor, aGrant, aMarket, aNav, anInvestor, aShareClass, CHAIN } from '../support/factories';
import { aDealingCalendar } from '../support/dealing.factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aClosedPort, aSimulator, aTwoStepOrder, providersFor, SIM, subscribeBody } from '../support/order.factories';

/**
 * Surface R, R-two-step (spec/api-description.md "Order record, R-two-step", its states table,
 * "Orders, R-two-step" and the errors table), over HTTP, with the provider simulator as the
 * supply-side platform over a real network exchange.
 * This file: creation (POST /orders/subscribe), reading (GET /orders/:orderId) and the wallets an order delivers to.
 */
describe('Surface R: R-two-step subscriptions, creation and reads', () => {
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

    it("keys the first statusHistory entry at the order's createdAt, with the clock running", async () => {
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
        expect(res.body.data).toMatchObject({
          status: 'created',
          nav: '-1',
          amountTokensEstimated: '-1',
          navPublishedAt: null,
          amountFeesTotal: 1,
          amountPayable: 1001,
        });
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
      for (const [id, host] of [
        ['OR999999', m.hostA],
        [created.orderId, m.hostB],
      ]) {
        const res = await gw.api('GET', `/orders/${id}`, { host });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ isError: true, errorMsg: 'order not found', data: {} });
      }
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
