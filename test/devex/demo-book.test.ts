import { DEMO_PROVIDER, seedDemo } from '../../src/boot/seed';
import { seedDemoOrders } from '../../src/boot/demo-orders';
import { seedDemoBookWith } from '../../src/boot/demo-book';
import { statusesOf } from '../../src/modules/order/order-states';
import { OrderFlow } from '../../src/modules/order/order.entity';
import { ShareClass } from '../../src/modules/share-class/share-class.entity';
import type { SupplySimulator } from '../../src/supply/simulator';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aSimulator, providersFor } from '../support/order.factories';

type AumPoint = { shareClassId: string; publishedAt: number; tokens: string; aum: string };

/**
 * The demo a first `npm start` seeds shows a living book (issue 47, point 6): holders who bought
 * and redeemed over the 300 days of NAVs, a distributing class with a paid distribution, a NAV and
 * another request waiting for the approver, and an order in every state of both flows — each
 * through the services, as main.ts seeds it (seedDemo, seedDemoBook, seedDemoOrders).
 */
describe('demo data: a living book', () => {
  let gw: TestGateway;
  let sim: SupplySimulator;
  let token: string;
  let shareClassIds: string[];
  beforeAll(async () => {
    sim = await aSimulator(DEMO_PROVIDER);
    gw = await startTestGateway({ supply: providersFor(sim) });
    await gw.reset();
    const demo = await seedDemo(gw.em(), gw.clock.now());
    shareClassIds = demo.shareClassIds;
    await seedDemoBookWith(gw.gateway.services, gw.db.orm, gw.clock, demo);
    for (const sc of await gw.em().find(ShareClass, {})) sim.addFund(sc.fund.id);
    await seedDemoOrders(gw.db.orm.em.fork(), gw.gateway.services, demo);
    token = await gw.opsToken();
  }, 120_000);
  afterAll(async () => {
    await gw.close();
    await sim.stop();
  });

  const query = async <T>(q: string, variables?: Record<string, unknown>): Promise<T> => {
    const r = await gw.graphql(q, variables, { token });
    expect(r.body.errors).toBeUndefined();
    return r.body.data as T;
  };

  it("gives each class's AUM a history: held from the first months on, and changing with the dealings", async () => {
    const { book } = await query<{ book: { aum: AumPoint[] } }>(`{ book { aum { shareClassId publishedAt tokens aum } } }`);
    for (const id of shareClassIds) {
      const points = book.aum.filter((p) => p.shareClassId === id);
      expect(points.length).toBeGreaterThanOrEqual(290);
      const early = points.slice(0, 60);
      expect(early.some((p) => Number(p.aum) > 0)).toBe(true);
      const held = points.slice(60).map((p) => Number(p.tokens));
      expect(held.every((t) => t > 0)).toBe(true);
      // bought and redeemed over the year: the register's tokens go up and down
      const steps = held.slice(1).map((t, i) => t - held[i]);
      expect(steps.some((s) => s > 0)).toBe(true);
      expect(steps.some((s) => s < 0)).toBe(true);
    }
  });

  it('pays a distribution on the distributing class', async () => {
    const { distributionPolicy, distributions } = await query<{
      distributionPolicy: { treatment: string; payment: string };
      distributions: { status: string; payment: string; paid: string; payDate: string }[];
    }>(`query($id: ID!) { distributionPolicy(shareClassId: $id) { treatment payment } distributions(shareClassId: $id) { status payment paid payDate } }`, {
      id: shareClassIds[1],
    });
    expect(distributionPolicy).toEqual({ treatment: 'distributing', payment: 'cash' });
    expect(distributions).toHaveLength(1);
    expect(distributions[0]).toMatchObject({ status: 'paid', payment: 'cash' });
    expect(Number(distributions[0].paid)).toBeGreaterThan(0);
  });

  it('leaves a NAV and a category upgrade waiting for the approver, and Today says so', async () => {
    const { approvalRequests, today } = await query<{
      approvalRequests: { kind: string; requestedBy: string }[];
      today: { approvalsWaiting: { kind: string; count: number }[]; navsDue: { pendingNavs: number }[] };
    }>(`{ approvalRequests(status: requested) { kind requestedBy } today { approvalsWaiting { kind count } navsDue { pendingNavs } } }`);
    expect(approvalRequests.map((r) => r.kind).sort()).toEqual(['investor_category', 'nav_confirmation']);
    expect(new Set(approvalRequests.map((r) => r.requestedBy))).toEqual(new Set(['ops:demo-console']));
    expect(today.approvalsWaiting.map((a) => a.kind).sort()).toEqual(['investor_category', 'nav_confirmation']);
  });

  it('keeps an order in every state of both flows', async () => {
    const statuses = async (flow: OrderFlow) => {
      const { orders } = await query<{ orders: { items: { status: string }[] } }>(
        `query($flow: OrderFlow) { orders(filter: { flow: $flow }, page: { first: 200 }) { items { status } } }`,
        { flow },
      );
      return new Set(orders.items.map((o) => o.status));
    };
    expect(await statuses(OrderFlow.two_step)).toEqual(new Set(statusesOf(OrderFlow.two_step)));
    expect(await statuses(OrderFlow.one_step)).toEqual(new Set(statusesOf(OrderFlow.one_step)));
  });
});
