import type { SupplySimulator } from '../../src/supply/simulator';
import { aMarket, anInvestor } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aClosedPort, aSimulator, aTwoStepOrder, providersFor } from '../support/order.factories';

/**
 * Surface R, R-two-step (spec/api-description.md "Order record, R-two-step", its states table,
 * "Orders, R-two-step" and the errors table), over HTTP, with the provider simulator as the
 * supply-side platform over a real network exchange.
 * This file: the lists of orders by distributor and by investor.
 */
describe('Surface R: R-two-step subscriptions, lists', () => {
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
        {
          orderId: b.orderId,
          orderType: 'SUBSCRIPTION',
          status: 'created',
          investorId: m.investor.id,
          shareClassId: m.shareClass.id,
          amountSubscription: 200,
          amountPayable: 200.2,
          createdAt: NOW.getTime() + 1,
        },
        {
          orderId: a.orderId,
          orderType: 'SUBSCRIPTION',
          status: 'created',
          investorId: m.investor.id,
          shareClassId: m.shareClass.id,
          amountSubscription: 100,
          amountPayable: 100.1,
          createdAt: NOW.getTime(),
        },
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
      expect(res.body).toEqual({
        isError: true,
        errorMsg: 'status must be one of created, submitted, cancelled, accepted, rejected, settled, failed',
        data: {},
      });
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
});
