import Decimal from 'decimal.js';
import { DomainEvent } from '../../src/events/event.entity';
import { Order, OrderStatusEntry } from '../../src/modules/order/order.entity';
import type { SupplySimulator } from '../../src/supply/simulator';
import { aDistributor, aGrant, aMarket, anInvestor } from '../support/factories';
import { serverUrl } from '../support/database';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aSimulator, aTwoStepOrder, providersFor, subscribeBody } from '../support/order.factories';

/**
 * Correctness under concurrency (R-two-step): racing pushes and cancels on one order, and
 * hundreds of subscriptions at once from several distributors. Meant for the PostgreSQL server
 * (DATABASE_URL), where requests really run in parallel on a pool of connections; it also runs on
 * the embedded database.
 */
describe('Surface R: R-two-step under concurrency', () => {
  let gw: TestGateway;
  let sim: SupplySimulator;

  beforeAll(async () => {
    sim = await aSimulator();
    gw = await startTestGateway({ supply: providersFor(sim), poolMax: 10 });
  });
  afterAll(async () => {
    await gw.close();
    await sim.stop();
  });
  beforeEach(async () => {
    await gw.reset();
    sim.release();
  });

  async function market() {
    const m = await aMarket(gw.em(), gw.clock.now());
    sim.addFund(m.shareClass.fund.id);
    return m;
  }

  const statuses = async (orderId: string) => (await gw.em().find(OrderStatusEntry, { order: orderId }, { orderBy: { at: 'asc' } })).map((e) => e.status);
  const transitionEvents = async (orderId: string) =>
    (await gw.em().find(DomainEvent, { type: 'order.transition', aggregateId: orderId }, { orderBy: { position: 'asc' } })).map((e) => e.payload.status);

  it('eight concurrent pushes of one order: exactly one wins, the others get the documented 409, the platform sees it once', async () => {
    // given
    const m = await market();
    const o = await aTwoStepOrder(gw, m);
    // when
    const results = await Promise.all(Array.from({ length: 8 }, () => gw.api('POST', `/orders/subscriptions/push/${o.orderId}`, { host: m.hostA })));
    // then
    const won = results.filter((r) => r.status === 200);
    const lost = results.filter((r) => r.status !== 200);
    expect(won).toHaveLength(1);
    expect(won[0].body.data.status).toBe('submitted');
    expect(lost.map((r) => [r.status, r.body.errorMsg])).toEqual(Array(7).fill([409, 'Cannot push subscription in status "submitted" (only "created")']));
    expect(sim.timesReceived(o.orderId)).toBe(1);
    expect(await statuses(o.orderId)).toEqual(['created', 'submitted']);
    expect(await transitionEvents(o.orderId)).toEqual(['created', 'submitted']);
  });

  it('a cancel arriving while the push is with the platform waits for it, then gets the documented 409', async () => {
    // given: the platform holds its answer, so the push is in flight
    const m = await market();
    const o = await aTwoStepOrder(gw, m);
    sim.hold();
    const push = gw.api('POST', `/orders/subscriptions/push/${o.orderId}`, { host: m.hostA });
    await sim.waitForOrders(sim.received.length + 1);
    // when: a cancel comes in meanwhile (the short pause only makes the overlap likely; the
    // outcome asserted below is the same whichever arrives first)
    const cancel = gw.api('POST', `/orders/subscriptions/cancel/${o.orderId}`, { host: m.hostA, body: { note: 'race' } });
    await new Promise((resolve) => setTimeout(resolve, 150));
    sim.release();
    const [pushed, cancelled] = await Promise.all([push, cancel]);
    // then
    expect(pushed.status).toBe(200);
    expect(pushed.body.data.status).toBe('submitted');
    expect(cancelled.status).toBe(409);
    expect(cancelled.body.errorMsg).toBe('Cannot cancel subscription in status "submitted" (only "created")');
    expect(await statuses(o.orderId)).toEqual(['created', 'submitted']);
  });

  it("push racing cancel on many orders: per order exactly one wins and the loser gets the 409 naming the winner's status", async () => {
    const m = await market();
    const orders = [];
    for (let i = 0; i < 12; i++) orders.push(await aTwoStepOrder(gw, m));
    const outcomes = await Promise.all(
      orders.map(async (o, i) => {
        const calls = [
          gw.api('POST', `/orders/subscriptions/push/${o.orderId}`, { host: m.hostA }),
          gw.api('POST', `/orders/subscriptions/cancel/${o.orderId}`, { host: m.hostA }),
        ];
        const [push, cancel] = await Promise.all(i % 2 ? calls : [...calls].reverse()).then((r) => (i % 2 ? r : r.reverse()));
        return { o, push, cancel };
      }),
    );
    for (const { o, push, cancel } of outcomes) {
      const history = await statuses(o.orderId);
      expect(history).toHaveLength(2);
      if (push.status === 200) {
        expect(history).toEqual(['created', 'submitted']);
        expect([cancel.status, cancel.body.errorMsg]).toEqual([409, 'Cannot cancel subscription in status "submitted" (only "created")']);
        expect(sim.timesReceived(o.orderId)).toBe(1);
      } else {
        expect(history).toEqual(['created', 'cancelled']);
        expect(cancel.status).toBe(200);
        expect([push.status, push.body.errorMsg]).toEqual([409, 'Cannot push subscription in status "cancelled" (only "created")']);
        expect(sim.timesReceived(o.orderId)).toBe(0);
      }
    }
  });

  it('a push whose pusher vanished (claim past its lease) can be taken over', async () => {
    const m = await market();
    const o = await aTwoStepOrder(gw, m);
    // a claim left by a pusher that crashed mid-exchange
    await gw.em().nativeUpdate(Order, { id: o.orderId }, { pushClaim: 'crashed', pushClaimedAt: gw.clock.now() });
    gw.clock.advance(2_000 + 5_000 + 1); // provider timeout + margin
    const res = await gw.api('POST', `/orders/subscriptions/push/${o.orderId}`, { host: m.hostA });
    expect(res.status).toBe(200);
    expect(await statuses(o.orderId)).toEqual(['created', 'submitted']);
    const row = await gw.em().findOneOrFail(Order, o.orderId);
    expect(row.pushClaim).toBeNull();
  });

  /**
   * Three hundred on the PostgreSQL server; on the embedded database, which runs one statement at
   * a time, sixty keep the file within its time budget and still interleave every request.
   */
  const PER_DISTRIBUTOR = serverUrl() ? 100 : 20;
  const TOTAL = PER_DISTRIBUTOR * 3;

  it(`${TOTAL} concurrent subscriptions from three distributors get distinct ids and correct records`, async () => {
    // given
    const m = await market();
    const third = await aDistributor(gw.em(), ['dist-c.test']);
    await aGrant(gw.em(), third, m.shareClass);
    const sellers = [
      { distributor: m.distributor, host: 'dist-a.test' },
      { distributor: m.other, host: 'dist-b.test' },
      { distributor: third, host: 'dist-c.test' },
    ];
    const investors = await Promise.all(sellers.map((s) => anInvestor(gw.em(), s.distributor, { grants: [m.shareClass] })));
    // when
    const requests = Array.from({ length: TOTAL }, (_, i) => {
      const s = sellers[i % 3];
      const body = subscribeBody(
        { distributor: s.distributor, investor: investors[i % 3], shareClass: m.shareClass, hostA: s.host },
        { amountSubscription: 100 + i, externalRef: `req-${i}` },
      );
      return gw.api('POST', '/orders/subscribe', { host: s.host, body }).then((res) => ({ i, res }));
    });
    const results = await Promise.all(requests);
    // then
    expect(results.filter((r) => r.res.status !== 200).map((r) => r.res.text)).toEqual([]);
    const ids = results.map((r) => r.res.body.data.orderId);
    expect(new Set(ids).size).toBe(TOTAL);
    for (const { i, res } of results) {
      expect(res.body.data).toMatchObject({
        distributorId: sellers[i % 3].distributor.id,
        investorId: investors[i % 3].id,
        amountSubscription: 100 + i,
        amountPayable: new Decimal(100 + i)
          .mul(10)
          .div(10_000)
          .plus(100 + i)
          .toNumber(),
        externalRef: `req-${i}`,
        status: 'created',
      });
    }
    const stored = await gw.em().find(Order, {}, { populate: ['history'] });
    expect(stored).toHaveLength(TOTAL);
    expect(stored.every((o) => o.history.length === 1)).toBe(true);
    for (const s of sellers) {
      const list = await gw.api('GET', `/orders/subscriptions/distributor/${s.distributor.id}`, { host: s.host });
      expect(list.body.data.count).toBe(PER_DISTRIBUTOR);
      expect(list.body.data.items.every((item: any) => item.investorId === investors[sellers.indexOf(s)].id)).toBe(true);
    }
  });
});
