import { DEMO_PROVIDER, seedDemo } from '../../src/boot/seed';
import { seedDemoOrders } from '../../src/boot/demo-orders';
import { statusesOf } from '../../src/modules/order/order-states';
import { OrderFlow } from '../../src/modules/order/order.entity';
import { ShareClass } from '../../src/modules/share-class/share-class.entity';
import type { SupplySimulator } from '../../src/supply/simulator';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aSimulator, providersFor } from '../support/order.factories';

/**
 * The console opens on a populated blotter: the demo data of a development start holds an order
 * in every state of both flows, each moved there through the services (history and events as any
 * order's), the two-step pushes through the simulator as `npm start` runs it.
 */
describe('demo data: an order in every state of both flows', () => {
  let gw: TestGateway;
  let sim: SupplySimulator;
  beforeAll(async () => {
    sim = await aSimulator(DEMO_PROVIDER);
    gw = await startTestGateway({ supply: providersFor(sim) });
  });
  afterAll(async () => {
    await gw.close();
    await sim.stop();
  });

  it('after seeding, the ops blotter lists every two-step and one-step status, each order with a history that ends in it', async () => {
    const demo = await seedDemo(gw.em(), gw.clock.now());
    // the development simulator knows the funds in the database at start (startDevSimulator)
    for (const sc of await gw.em().find(ShareClass, {})) sim.addFund(sc.fund.id);
    await seedDemoOrders(gw.db.orm.em.fork(), gw.gateway.services, demo);

    const byFlow = async (flow: 'two_step' | 'one_step') => {
      const r = await gw.graphql(
        `query($flow: OrderFlow) { orders(filter: { flow: $flow }, page: { first: 100 }) { items { id status statusHistory { status } } } }`,
        { flow },
        { token: await gw.opsToken() },
      );
      expect(r.body.errors).toBeUndefined();
      return r.body.data.orders.items as { id: string; status: string; statusHistory: { status: string }[] }[];
    };
    const twoStep = await byFlow('two_step');
    const oneStep = await byFlow('one_step');
    expect(new Set(twoStep.map((o) => o.status))).toEqual(new Set(statusesOf(OrderFlow.two_step)));
    expect(new Set(oneStep.map((o) => o.status))).toEqual(new Set(statusesOf(OrderFlow.one_step)));
    for (const o of [...twoStep, ...oneStep]) {
      expect(o.statusHistory[o.statusHistory.length - 1].status).toBe(o.status);
    }
    // pushed orders carry the platform's reference, as a push through the door leaves them
    const pushed = twoStep.filter((o) => !['created', 'cancelled'].includes(o.status));
    expect(pushed).toHaveLength(5);
    for (const o of pushed) expect(o.statusHistory.map((e) => e.status)).toContain('submitted');
  });
});
