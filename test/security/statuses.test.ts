import { Investor } from '../../src/modules/investor/investor.entity';
import { Order } from '../../src/modules/order/order.entity';
import { ShareClass } from '../../src/modules/share-class/share-class.entity';
import { bearerOf } from '../support/auth.factories';
import { aMarket } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { asOps } from '../support/ops.factories';
import { aTwoStepOrder, subscribeBody } from '../support/order.factories';

/**
 * Statuses are rules, not decoration: a distributor that is not `active` is refused on every
 * door and its tokens stop working; a share class that is not `active` takes no new orders; an
 * investor that is not `active` places none.
 */
describe('statuses are enforced, and nobody reads anything', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  it('an anonymous GraphQL request cannot read an order, its investor or its distributor’s hostnames', async () => {
    const w = await aMarket(gw.em(), gw.clock.now());
    const order = await aTwoStepOrder(gw, w);
    const res = await gw.graphql(`{ order(id: "${order.orderId}") { status investor { email wallets { address } } distributor { hosts { hostname } } } }`);
    expect(res.body).toEqual({
      data: null,
      errors: [expect.objectContaining({ message: 'authentication required', extensions: { code: 'UNAUTHENTICATED' } })],
    });
  });

  it('a suspended distributor is refused on surface R, on surface O and on GraphQL; reactivated, it works again', async () => {
    const w = await aMarket(gw.em(), gw.clock.now());
    const headers = await bearerOf(gw, w.distributor);
    await asOps(gw, `mutation { updateDistributor(id: "${w.distributor.id}", input: {status: "suspended"}) { status } }`);

    const r = await gw.api('POST', '/orders/subscribe', { host: w.hostA, body: subscribeBody(w) });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ isError: true, errorMsg: 'distributor is suspended', data: {} });
    const o = await gw.api('GET', '/assets/shareclass/all', { headers });
    expect([o.status, o.body.errorMsg]).toEqual([403, 'distributor is suspended']);
    const g = await gw.graphql('{ shareClasses { id } }', undefined, { token: headers.authorization.slice('Bearer '.length) });
    expect([g.status, g.body.errors?.[0]?.extensions?.code]).toEqual([403, 'FORBIDDEN']);
    // Nothing was written for the refused subscription.
    expect(await gw.em().count(Order, {})).toBe(0);

    await asOps(gw, `mutation { updateDistributor(id: "${w.distributor.id}", input: {status: "active"}) { status } }`);
    expect((await gw.api('GET', '/assets/shareclass/all', { headers })).status).toBe(200);
    expect((await gw.api('POST', '/orders/subscribe', { host: w.hostA, body: subscribeBody(w) })).status).toBe(200);
  });

  it('a share class that is not active takes no new orders, in either flow (409)', async () => {
    const w = await aMarket(gw.em(), gw.clock.now());
    await gw.em().nativeUpdate(ShareClass, { id: w.shareClass.id }, { status: 'closed' });
    gw.gateway.services.readCache.clear();
    const twoStep = await gw.api('POST', '/orders/subscribe', { host: w.hostA, body: subscribeBody(w) });
    expect(twoStep.status).toBe(409);
    expect(twoStep.body).toEqual({ isError: true, errorMsg: `share class ${w.shareClass.id} is closed: it takes no new orders`, data: {} });
    const oneStep = await gw.api('POST', '/orders/subscribe', {
      host: w.hostA,
      body: { distributorId: w.distributor.id, investorId: w.investor.id, shareClassId: w.shareClass.id, amount: 100 },
    });
    expect([oneStep.status, oneStep.body.errorMsg]).toEqual([409, `share class ${w.shareClass.id} is closed: it takes no new orders`]);
  });

  it('an investor that is not active places no orders (409), on surface R and surface O', async () => {
    const w = await aMarket(gw.em(), gw.clock.now());
    await gw.em().nativeUpdate(Investor, { id: w.investor.id }, { status: 'blocked' });
    const r = await gw.api('POST', '/orders/subscribe', { host: w.hostA, body: subscribeBody(w) });
    expect([r.status, r.body.errorMsg]).toEqual([409, `investor ${w.investor.id} is blocked: it places no orders`]);
    const headers = await bearerOf(gw, w.distributor);
    const userId = w.investor.id.replace(/^IN/, 'US');
    const o = await gw.api('POST', '/orders/redeem', {
      headers,
      body: { distributorId: w.distributor.id.replace(/^DT/, 'PT'), userId, shareClassId: w.shareClass.id, tokenCount: 1 },
    });
    expect([o.status, o.body.errorMsg]).toEqual([409, `investor ${userId} is blocked: it places no orders`]);
  });
});
