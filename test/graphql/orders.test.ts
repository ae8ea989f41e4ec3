import type { SupplySimulator } from '../../src/supply/simulator';
import { aGrant, aMarket, anInvestor, aShareClass } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aSimulator, aTwoStepOrder, providersFor } from '../support/order.factories';

/** The order book over GraphQL: the same services as surface R, for the ops console. */
describe('GraphQL: orders', () => {
  let gw: TestGateway;
  let sim: SupplySimulator;
  const NOW = new Date(Date.UTC(2030, 0, 10, 12));

  beforeAll(async () => {
    sim = await aSimulator();
    gw = await startTestGateway({ supply: providersFor(sim) });
  });
  afterAll(async () => {
    await gw.close();
    await sim.stop();
  });
  beforeEach(async () => {
    await gw.reset();
    gw.clock.set(NOW);
  });

  async function market() {
    const m = await aMarket(gw.em(), NOW);
    sim.addFund(m.shareClass.fund.id);
    return m;
  }

  const CREATE = `mutation($input: CreateTwoStepSubscriptionInput!) {
    createTwoStepSubscription(input: $input) { orderId orderType flow status amount amountFeesTotal amountPayable amountTokensEstimated nav distributorId externalRef }
  }`;

  it('ops create, push and cancel two-step subscriptions through the same rules as surface R', async () => {
    // given
    const m = await market();
    const token = await gw.opsToken();
    const input = {
      distributorId: m.distributor.id,
      investorId: m.investor.id,
      shareClassId: m.shareClass.id,
      amountSubscription: '2500.5',
      externalRef: 'console-1',
    };
    // when
    const created = await gw.graphql(CREATE, { input }, { token });
    // then
    expect(created.body.errors).toBeUndefined();
    expect(created.body.data.createTwoStepSubscription).toEqual({
      orderId: expect.stringMatching(/^OR\d{6}$/),
      orderType: 'SUBSCRIPTION',
      flow: 'two_step',
      status: 'created',
      amount: '2500.5',
      amountFeesTotal: '2.5005',
      amountPayable: '2503.0005',
      amountTokensEstimated: '2000.4',
      nav: '1.25',
      distributorId: m.distributor.id,
      externalRef: 'console-1',
    });
    const orderId = created.body.data.createTwoStepSubscription.orderId;
    const pushed = await gw.graphql(
      `mutation($id: String!) { pushTwoStepSubscription(orderId: $id) { status updatedBy supplyRefs } }`,
      { id: orderId },
      { token },
    );
    expect(pushed.body.data.pushTwoStepSubscription).toMatchObject({
      status: 'submitted',
      updatedBy: 'test-ops',
      supplyRefs: { 'supply-sim': { orderReference: expect.any(String) } },
    });
    const cancel = await gw.graphql(`mutation($id: String!) { cancelTwoStepSubscription(orderId: $id, note: "x") { status } }`, { id: orderId }, { token });
    expect(cancel.body.errors![0]).toMatchObject({
      message: 'Cannot cancel subscription in status "submitted" (only "created")',
      extensions: { code: 'CONFLICT' },
    });
    // and surface R reads the same book
    const rest = await gw.api('GET', `/orders/${orderId}`, { host: m.hostA });
    expect(rest.body.data).toMatchObject({ status: 'submitted', createdBy: 'test-ops', amountSubscription: 2500.5 });
  });

  it('answers the documented messages with their codes', async () => {
    const m = await market();
    const token = await gw.opsToken();
    const bare = await anInvestor(gw.em(), m.distributor, { grants: [] });
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ investorId: m.investor.id, shareClassId: m.shareClass.id, amountSubscription: 1 }, 'distributorId is required', 'BAD_USER_INPUT'],
      [{ distributorId: m.distributor.id, investorId: 'IN999999', shareClassId: m.shareClass.id, amountSubscription: 1 }, 'investorId not found', 'NOT_FOUND'],
      [
        { distributorId: m.distributor.id, investorId: bare.id, shareClassId: m.shareClass.id, amountSubscription: 1 },
        `Investor not granted access to ${m.shareClass.id}`,
        'CONFLICT',
      ],
      [
        { distributorId: m.distributor.id, investorId: m.investor.id, shareClassId: m.shareClass.id, amountSubscription: '-1' },
        'amountSubscription must be >= 0',
        'BAD_USER_INPUT',
      ],
    ];
    for (const [input, message, code] of cases) {
      const res = await gw.graphql(CREATE, { input }, { token });
      expect(res.body.errors![0]).toMatchObject({ message, extensions: { code } });
    }
    const anonymous = await gw.graphql(CREATE, { input: cases[0][0] });
    expect(anonymous.body.errors![0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('order(id) resolves its investor, share class, distributor, statusHistory and supplyRefs', async () => {
    const m = await market();
    const o = await aTwoStepOrder(gw, m);
    await gw.api('POST', `/orders/subscriptions/push/${o.orderId}`, { host: m.hostA });
    const res = await gw.graphql(
      `query($id: ID!) { order(id: $id) { orderId investor { id email } shareClass { id currency defaultChainId } distributor { id name } statusHistory { at status by note } supplyRefs } }`,
      { id: o.orderId },
      { token: await gw.opsToken() },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.order).toMatchObject({
      orderId: o.orderId,
      investor: { id: m.investor.id, email: 'investor@example.com' },
      shareClass: { id: m.shareClass.id, currency: 'USD', defaultChainId: '11155111' },
      distributor: { id: m.distributor.id, name: 'Test Distributor' },
      statusHistory: [
        { at: NOW.getTime(), status: 'created', by: 'Network', note: null },
        { at: NOW.getTime() + 1, status: 'submitted', by: 'Network', note: expect.stringMatching(/^Pushed to supply-sim/) },
      ],
      supplyRefs: { 'supply-sim': { orderReference: sim.referenceOf(o.orderId), submittedAt: NOW.getTime() } },
    });
  });

  it('orders(filter, page) filters by distributor, investor, share class, status, externalRef, flow and createdAt range, newest first, with a cursor', async () => {
    const m = await market();
    const sc2 = await aShareClass(gw.em());
    await aGrant(gw.em(), m.distributor, sc2);
    const inv2 = await anInvestor(gw.em(), m.distributor, { grants: [sc2] });
    const theirs = await anInvestor(gw.em(), m.other, { grants: [m.shareClass] });
    const a = await aTwoStepOrder(gw, m, { externalRef: 'r1' });
    gw.clock.advance(1000);
    const b = await aTwoStepOrder(gw, { ...m, investor: inv2, shareClass: sc2 }, { externalRef: 'r2' });
    gw.clock.advance(1000);
    const c = await aTwoStepOrder(gw, { ...m, distributor: m.other, investor: theirs }, { externalRef: 'r1' }, m.hostB);
    await gw.api('POST', `/orders/subscriptions/cancel/${b.orderId}`, { host: m.hostA });
    const token = await gw.opsToken();
    const q = async (filter: Record<string, unknown>, page?: Record<string, unknown>) => {
      const res = await gw.graphql(
        `query($f: OrderFilter, $p: PageInput) { orders(filter: $f, page: $p) { items { orderId distributor { id } } nextCursor } }`,
        { f: filter, p: page },
        { token },
      );
      expect(res.body.errors).toBeUndefined();
      return res.body.data.orders;
    };
    const ids = async (filter: Record<string, unknown>) => (await q(filter)).items.map((i: any) => i.orderId);
    expect(await ids({})).toEqual([c.orderId, b.orderId, a.orderId]);
    expect(await ids({ distributorId: m.distributor.id })).toEqual([b.orderId, a.orderId]);
    expect(await ids({ investorId: inv2.id })).toEqual([b.orderId]);
    expect(await ids({ shareClassId: m.shareClass.id })).toEqual([c.orderId, a.orderId]);
    expect(await ids({ status: 'cancelled' })).toEqual([b.orderId]);
    expect(await ids({ externalRef: 'r1' })).toEqual([c.orderId, a.orderId]);
    expect(await ids({ flow: 'one_step' })).toEqual([]);
    expect(await ids({ createdFrom: NOW.getTime() + 1000, createdTo: NOW.getTime() + 1000 })).toEqual([b.orderId]);
    const first = await q({}, { first: 2 });
    expect(first.items.map((i: any) => i.orderId)).toEqual([c.orderId, b.orderId]);
    expect(first.items.map((i: any) => i.distributor.id)).toEqual([m.other.id, m.distributor.id]);
    const second = await q({}, { first: 2, after: first.nextCursor });
    expect(second).toEqual({ items: [{ orderId: a.orderId, distributor: { id: m.distributor.id } }], nextCursor: null });
  });

  it('loads related records in batches: a page of 24 orders costs as many queries as a page of 3', async () => {
    // given: orders of two distributors, investors and share classes
    const m = await market();
    const theirs = await anInvestor(gw.em(), m.other, { grants: [m.shareClass] });
    for (let i = 0; i < 12; i++) {
      await aTwoStepOrder(gw, m);
      await aTwoStepOrder(gw, { ...m, distributor: m.other, investor: theirs }, {}, m.hostB);
    }
    const token = await gw.opsToken();
    // The token is read once and then remembered (OpsTokenService): outside the pages' counts.
    expect((await gw.graphql('{ opsTokenName }', undefined, { token })).status).toBe(200);
    // Counted at knex, which every statement passes, the ORM's own and the plain ones (rawRows).
    const knex = gw.db.orm.em.getConnection().getKnex();
    let queries = 0;
    const count = () => {
      queries++;
    };
    knex.on('query', count);
    const page = async (first: number) => {
      queries = 0;
      const res = await gw.graphql(
        `query($n: Int) { orders(page: { first: $n }) { items { orderId investor { id } shareClass { id } distributor { id } statusHistory { status } } } }`,
        { n: first },
        { token },
      );
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.orders.items).toHaveLength(first);
      return queries;
    };
    try {
      // when / then
      const small = await page(3);
      const large = await page(24);
      expect(small).toBeGreaterThan(4); // the page, and one query per relation
      expect(large).toBe(small);
    } finally {
      knex.off('query', count);
    }
  });
});
