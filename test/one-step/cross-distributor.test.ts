import { alias } from '../support/ids';
import { Order } from '../../src/modules/order/order.entity';
import { aTokenPair } from '../support/auth.factories';
import { aHolding, aMarket, anInvestor, aShareClass, aGrant } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aOneStepOrder } from '../support/one-step.factories';

/**
 * Distributor A owns an investor, a holding and orders; distributor B tries every id-taking
 * endpoint on them, on surface R (its host), surface O and GraphQL (its access token). Each
 * answer must be byte-for-byte the answer for a record that does not exist, and nothing changes.
 */
describe("Isolation: a distributor never sees or touches another's users, investors, orders or holdings", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  async function twoDistributors() {
    const m = await aMarket(gw.em(), gw.clock.now()); // A = m.distributor on dist-a.test; B = m.other on dist-b.test
    await aHolding(gw.em(), m.investor, m.shareClass, '100');
    const pending = await aOneStepOrder(gw, m);
    const redemption = await aOneStepOrder(gw, m, { type: 'redeem', tokenCount: '10' });
    const investorB = await anInvestor(gw.em(), m.other);
    const onlyA = await aShareClass(gw.em());
    await aGrant(gw.em(), m.distributor, onlyA);
    const tokenB = (await aTokenPair(gw, m.other)).accessToken;
    return { ...m, pending, redemption, investorB, onlyA, tokenB, headersB: { authorization: `Bearer ${tokenB}` } };
  }

  const MISSING_ORDER = 'ord_ffffffffffffffffffffffff';

  it("surface R: GET /orders/:id and POST /orders/cancel/:orderId on A's order answer exactly like a missing order", async () => {
    const w = await twoDistributors();
    for (const [method, path] of [
      ['GET', '/orders/%s'],
      ['POST', '/orders/cancel/%s'],
    ]) {
      const foreign = await gw.api(method, path.replace('%s', w.pending.id), { host: w.hostB });
      const missing = await gw.api(method, path.replace('%s', MISSING_ORDER), { host: w.hostB });
      expect([foreign.status, foreign.body]).toEqual([404, { isError: true, errorMsg: 'order not found', data: {} }]);
      expect(foreign.body).toEqual(missing.body);
    }
    expect((await gw.em().findOneOrFail(Order, w.pending.id)).status).toBe('pending');
  });

  it("surface R: placing orders with A's distributor or A's investor answers like unknown ids", async () => {
    const w = await twoDistributors();
    for (const path of ['/orders/subscribe', '/orders/redeem']) {
      const base = { shareClassId: w.shareClass.id, amount: 1, tokenCount: 1 };
      const asA = await gw.api('POST', path, { host: w.hostB, body: { ...base, distributorId: w.distributor.id, investorId: w.investor.id } });
      const unknownD = await gw.api('POST', path, { host: w.hostB, body: { ...base, distributorId: 'DT999999', investorId: w.investor.id } });
      expect([asA.status, asA.body]).toEqual([404, { isError: true, errorMsg: 'distributorId not found', data: {} }]);
      expect(asA.body).toEqual(unknownD.body);
      const aInvestor = await gw.api('POST', path, { host: w.hostB, body: { ...base, distributorId: w.other.id, investorId: w.investor.id } });
      const unknownI = await gw.api('POST', path, { host: w.hostB, body: { ...base, distributorId: w.other.id, investorId: 'IN999999' } });
      expect([aInvestor.status, aInvestor.body]).toEqual([404, { isError: true, errorMsg: 'investorId not found', data: {} }]);
      expect(aInvestor.body).toEqual(unknownI.body);
      const aShareClass = await gw.api('POST', path, {
        host: w.hostB,
        body: { ...base, distributorId: w.other.id, investorId: w.investorB.id, shareClassId: w.onlyA.id },
      });
      expect([aShareClass.status, aShareClass.body.errorMsg]).toEqual([404, 'shareClassId not found']);
    }
  });

  it("surface O: GET /orders/:id and POST /orders/cancel/:orderId on A's order answer exactly like a missing order", async () => {
    const w = await twoDistributors();
    for (const [method, path] of [
      ['GET', '/orders/%s'],
      ['POST', '/orders/cancel/%s'],
    ]) {
      for (const id of [w.pending.id, w.redemption.id]) {
        const foreign = await gw.api(method, path.replace('%s', id), { headers: w.headersB });
        const missing = await gw.api(method, path.replace('%s', MISSING_ORDER), { headers: w.headersB });
        expect([foreign.status, foreign.body]).toEqual([404, { isError: true, errorMsg: 'order not found', data: {} }]);
        expect(foreign.body).toEqual(missing.body);
      }
    }
    expect((await gw.em().findOneOrFail(Order, w.redemption.id)).status).toBe('pending');
  });

  it("surface O: placing orders with A's PT or A's US answers like unknown ids", async () => {
    const w = await twoDistributors();
    const ptA = alias(w.distributor.id, 'PT');
    const ptB = alias(w.other.id, 'PT');
    for (const path of ['/orders/subscribe', '/orders/redeem']) {
      const base = { shareClassId: w.shareClass.id, amount: 1, tokenCount: 1 };
      const asA = await gw.api('POST', path, { headers: w.headersB, body: { ...base, distributorId: ptA, userId: alias(w.investor.id, 'US') } });
      expect([asA.status, asA.body]).toEqual([404, { isError: true, errorMsg: 'distributorId not found', data: {} }]);
      const aUser = await gw.api('POST', path, { headers: w.headersB, body: { ...base, distributorId: ptB, userId: alias(w.investor.id, 'US') } });
      const unknownUser = await gw.api('POST', path, { headers: w.headersB, body: { ...base, distributorId: ptB, userId: 'US999999' } });
      expect([aUser.status, aUser.body]).toEqual([404, { isError: true, errorMsg: 'investorId not found', data: {} }]);
      expect(aUser.body).toEqual(unknownUser.body);
    }
  });

  it("surface O: A's user's holdings, A's share class and registering under A answer like missing records", async () => {
    const w = await twoDistributors();
    const foreign = await gw.api('GET', `/transaction/holdings/user/${alias(w.investor.id, 'US')}/shareclass/${w.shareClass.id}`, { headers: w.headersB });
    const missing = await gw.api('GET', `/transaction/holdings/user/US999999/shareclass/${w.shareClass.id}`, { headers: w.headersB });
    expect([foreign.status, foreign.body]).toEqual([404, { isError: true, errorMsg: 'userId not found', data: {} }]);
    expect(foreign.body).toEqual(missing.body);
    // B's own user, on a share class only A sells
    const ungranted = await gw.api('GET', `/transaction/holdings/user/${alias(w.investorB.id, 'US')}/shareclass/${w.onlyA.id}`, { headers: w.headersB });
    expect(ungranted.body).toEqual({ isError: true, errorMsg: 'shareClassId not found', data: {} });
    for (const path of [
      `/assets/shareclass/${w.onlyA.id}`,
      `/assets/shareclass/nav/live?shareClassId=${w.onlyA.id}`,
      `/assets/shareclass/nav/history?shareClassId=${w.onlyA.id}`,
    ]) {
      const res = await gw.api('GET', path, { headers: w.headersB });
      expect([path, res.status, res.body.errorMsg]).toEqual([path, 404, 'shareClassId not found']);
    }
    const register = await gw.api('POST', '/user/register', {
      headers: w.headersB,
      body: { email: 'x@example.com', name: 'X', distributorId: alias(w.distributor.id, 'PT') },
    });
    expect([register.status, register.body]).toEqual([404, { isError: true, errorMsg: `distributorId not found: ${alias(w.distributor.id, 'PT')}`, data: {} }]);
  });

  it("GraphQL with B's access token: A's orders, holdings and ids are not found, and the ops mutations are forbidden", async () => {
    const w = await twoDistributors();
    const q = (query: string, variables: Record<string, unknown> = {}) => gw.graphql(query, variables, { token: w.tokenB });
    const order = await q('query($id: ID!) { oneStepOrder(id: $id) { id status } }', { id: w.pending.id });
    expect(order.body.errors![0]).toMatchObject({ message: 'order not found', extensions: { code: 'NOT_FOUND' } });
    const cancel = await q('mutation($id: ID!) { cancelOneStepOrder(orderId: $id) { success } }', { id: w.pending.id });
    expect(cancel.body.errors![0]).toMatchObject({ message: 'order not found' });
    const holding = await q('query($u: String!, $s: String!) { holding(userId: $u, shareClassId: $s) { tokenBalance } }', {
      u: alias(w.investor.id, 'US'),
      s: w.shareClass.id,
    });
    expect(holding.body.errors![0]).toMatchObject({ message: 'userId not found', extensions: { code: 'NOT_FOUND' } });
    const place = await q('mutation($i: OneStepSubscriptionInput!) { placeOneStepSubscription(input: $i) { id } }', {
      i: { distributorId: alias(w.distributor.id, 'PT'), userId: alias(w.investor.id, 'US'), shareClassId: w.shareClass.id, amount: '1' },
    });
    expect(place.body.errors![0]).toMatchObject({ message: 'distributorId not found' });
    for (const op of ['acceptOneStepOrder(orderId: $id)', 'rejectOneStepOrder(orderId: $id, reason: "x")', 'failOneStepOrder(orderId: $id, reason: "x")']) {
      const res = await q(`mutation($id: ID!) { ${op} { status } }`, { id: w.pending.id });
      expect(res.body.errors![0].extensions.code).toBe('FORBIDDEN');
    }
    expect((await gw.em().findOneOrFail(Order, w.pending.id)).status).toBe('pending');
  });

  it("ids cannot be guessed: one-step order ids are 96 random bits, and B's own orders stay visible to B", async () => {
    const w = await twoDistributors();
    expect(w.pending.id).toMatch(/^ord_[0-9a-f]{24}$/);
    const own = await aOneStepOrder(gw, { distributor: w.other, investor: w.investorB, shareClass: w.shareClass });
    expect((await gw.api('GET', `/orders/${own.id}`, { host: w.hostB })).status).toBe(200);
    expect((await gw.api('GET', `/orders/${own.id}`, { headers: w.headersB })).status).toBe(200);
    expect((await gw.api('GET', `/orders/${own.id}`, { host: w.hostA })).status).toBe(404);
  });
});
