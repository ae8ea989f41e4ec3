import { alias } from '../support/ids';
import { Investor } from '../../src/modules/investor/investor.entity';
import { Order } from '../../src/modules/order/order.entity';
import { bearerOf } from '../support/auth.factories';
import { aHolding, aMarket, aNav, anInvestor, CHAIN } from '../support/factories';
import { aDealingCalendar } from '../support/dealing.factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aOneStepOrder, TRANSFER_HASH } from '../support/one-step.factories';

const T0 = new Date(Date.UTC(2031, 5, 7, 8, 0, 0));
/** T0 is a Saturday: without a dealing calendar the factories' class (dealing every day) deals the order that day, cut-off at its end (UTC), settled Sunday. */
const DEALING_DATES = { dealingDate: '2031-06-07', cutOffAt: Date.UTC(2031, 5, 8), expectedSettlementDate: '2031-06-08' };

describe('Surface O endpoints (PT/US ids, bearer-authenticated)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());
  beforeEach(async () => {
    await gw.reset();
    gw.clock.set(T0);
  });

  async function world() {
    const m = await aMarket(gw.em(), gw.clock.now());
    const headers = await bearerOf(gw, m.distributor);
    return { ...m, headers, pt: alias(m.distributor.id, 'PT'), us: alias(m.investor.id, 'US') };
  }

  describe('funds and NAVs under /assets/shareclass', () => {
    it('GET /assets/shareclass/all lists the funds granted to the token distributor as items and count', async () => {
      const w = await world();
      const res = await gw.api('GET', '/assets/shareclass/all', { headers: w.headers });
      expect(res.status).toBe(200);
      expect(res.body.data.count).toBe(1);
      expect(res.body.data.items[0]).toMatchObject({ shareClassId: w.shareClass.id, currency: 'USD', defaultChainId: CHAIN });
    });

    it('GET /assets/shareclass/:shareClassId returns one fund; malformed and unknown ids answer as on R', async () => {
      const w = await world();
      const res = await gw.api('GET', `/assets/shareclass/${w.shareClass.id}`, { headers: w.headers });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ shareClassId: w.shareClass.id, fundId: w.shareClass.fund.id, meta: { name: 'Test Class A' } });
      expect((await gw.api('GET', '/assets/shareclass/SC1', { headers: w.headers })).body).toEqual({
        isError: true,
        errorMsg: 'invalid shareClassId format',
        data: {},
      });
      expect((await gw.api('GET', '/assets/shareclass/SC999999', { headers: w.headers })).body).toEqual({
        isError: true,
        errorMsg: 'shareClassId not found',
        data: {},
      });
    });

    it('GET /assets/shareclass/nav/live and /nav/history take the shareClassId query', async () => {
      const w = await world();
      await aNav(gw.em(), w.shareClass, '1.3', new Date(T0.getTime() - 1_000));
      const live = await gw.api('GET', `/assets/shareclass/nav/live?shareClassId=${w.shareClass.id}`, { headers: w.headers });
      expect(live.status).toBe(200);
      expect(live.body.data).toMatchObject({ shareClassId: w.shareClass.id, close: '1.3' });
      const history = await gw.api('GET', `/assets/shareclass/nav/history?shareClassId=${w.shareClass.id}`, { headers: w.headers });
      expect(history.status).toBe(200);
      expect(history.body.data.map((n: any) => n.close)).toEqual(['1.25', '1.3']);
      const missing = await gw.api('GET', '/assets/shareclass/nav/live', { headers: w.headers });
      expect(missing.body).toEqual({ isError: true, errorMsg: 'shareClassId is required', data: {} });
    });
  });

  describe('POST /user/register', () => {
    it('registers a user of the token distributor and returns its US###### userId; uniqueId is kept as externalInvestorId', async () => {
      const w = await world();
      const res = await gw.api('POST', '/user/register', { headers: w.headers, body: { email: 'ada@example.com', name: 'Ada Lovelace', uniqueId: 'crm-42' } });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        userId: expect.stringMatching(/^US\d{6}$/),
        distributorId: w.pt,
        uniqueId: 'crm-42',
        email: 'ada@example.com',
        name: 'Ada Lovelace',
        status: 'active',
        createdAt: T0.getTime(),
        createdBy: 'system',
        updatedAt: T0.getTime(),
        updatedBy: 'system',
      });
      const investor = await gw.em().findOneOrFail(Investor, alias(res.body.data.userId, 'IN'));
      expect(investor).toMatchObject({ externalInvestorId: 'crm-42', name: 'Ada Lovelace' });
      expect(investor.distributor.id).toBe(w.distributor.id);
    });

    it('accepts the own distributorId (PT######) and x-actor stamps the audit fields', async () => {
      const w = await world();
      const res = await gw.api('POST', '/user/register', {
        headers: { ...w.headers, 'x-actor': 'onboarding-bot' },
        body: { email: 'b@example.com', name: 'B', distributorId: w.pt },
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ distributorId: w.pt, createdBy: 'onboarding-bot' });
    });

    it.each([
      [{ name: 'No Mail' }, 'email is required'],
      [{ email: '', name: 'Empty Mail' }, 'email is required'],
      [{ email: 'a@example.com' }, 'name is required'],
      [{ email: 'not-an-email', name: 'X' }, 'email must be a valid email address'],
    ])('%j is 400 `%s`', async (body, message) => {
      const w = await world();
      const res = await gw.api('POST', '/user/register', { headers: w.headers, body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ isError: true, errorMsg: message, data: {} });
    });

    it('an unknown distributorId is 404 `distributorId not found: PT…`', async () => {
      const w = await world();
      const res = await gw.api('POST', '/user/register', { headers: w.headers, body: { email: 'a@example.com', name: 'A', distributorId: 'PT999999' } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ isError: true, errorMsg: 'distributorId not found: PT999999', data: {} });
    });
  });

  describe('orders', () => {
    it('POST /orders/subscribe places a pending subscription and answers with R one-step shape in PT/US ids', async () => {
      const w = await world();
      await aDealingCalendar(gw, w.shareClass.id, { settlementCurrencies: ['USDC'] });
      const res = await gw.api('POST', '/orders/subscribe', {
        headers: w.headers,
        body: { distributorId: w.pt, userId: w.us, shareClassId: w.shareClass.id, amount: 250, currency: 'USDC' },
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        orderId: expect.stringMatching(/^ord_/),
        status: 'pending',
        type: 'subscribe',
        shareClassId: w.shareClass.id,
        userId: w.us,
        distributorId: w.pt,
        amount: 250,
        currency: 'USDC',
        // the subscription fee on top, as on surface R and the two-step flow (10 bps)
        feesSubBps: 10,
        amountFeesTotal: 0.25,
        amountPayable: 250.25,
        createdAt: T0.getTime(),
        ...DEALING_DATES,
      });
      const order = await gw.em().findOneOrFail(Order, res.body.data.orderId);
      expect(order).toMatchObject({ surface: 'O', flow: 'one_step', type: 'subscription' });
      expect(order.investor.id).toBe(w.investor.id);
    });

    it('surface O names its fields: userId is required, and R ids (DT/IN) are not surface-O ids', async () => {
      const w = await world();
      const base = { distributorId: w.pt, userId: w.us, shareClassId: w.shareClass.id, amount: 1 };
      const noUser = await gw.api('POST', '/orders/subscribe', { headers: w.headers, body: { ...base, userId: undefined, investorId: w.investor.id } });
      expect(noUser.body).toEqual({ isError: true, errorMsg: 'userId is required', data: {} });
      const rDistributor = await gw.api('POST', '/orders/subscribe', { headers: w.headers, body: { ...base, distributorId: w.distributor.id } });
      expect(rDistributor.body).toEqual({ isError: true, errorMsg: 'distributorId not found', data: {} });
      const rUser = await gw.api('POST', '/orders/subscribe', { headers: w.headers, body: { ...base, userId: w.investor.id } });
      expect(rUser.body).toEqual({ isError: true, errorMsg: 'investorId not found', data: {} });
      const negative = await gw.api('POST', '/orders/subscribe', { headers: w.headers, body: { ...base, amount: -5 } });
      expect(negative.body).toEqual({ isError: true, errorMsg: 'amount must be >= 0', data: {} });
    });

    it('POST /orders/redeem places a pending redemption within the holding; above it is `tokenCount exceeds holdings`', async () => {
      const w = await world();
      await aHolding(gw.em(), w.investor, w.shareClass, '10');
      const body = { distributorId: w.pt, userId: w.us, shareClassId: w.shareClass.id };
      const ok = await gw.api('POST', '/orders/redeem', { headers: w.headers, body: { ...body, tokenCount: 4 } });
      expect(ok.status).toBe(200);
      expect(ok.body.data).toEqual({
        orderId: expect.stringMatching(/^ord_/),
        status: 'pending',
        type: 'redeem',
        shareClassId: w.shareClass.id,
        userId: w.us,
        distributorId: w.pt,
        tokenCount: 4,
        feesRedBps: 5,
        createdAt: T0.getTime(),
        ...DEALING_DATES,
      });
      const over = await gw.api('POST', '/orders/redeem', { headers: w.headers, body: { ...body, tokenCount: 6.5 } });
      expect(over.status).toBe(400);
      expect(over.body.errorMsg).toBe('tokenCount exceeds holdings');
      const neg = await gw.api('POST', '/orders/redeem', { headers: w.headers, body: { ...body, tokenCount: -1 } });
      expect(neg.body.errorMsg).toBe('tokenCount must be >= 0');
    });

    it('GET /orders/:id follows an order to settlement; orders placed on R read the same on O, in O ids', async () => {
      const w = await world();
      const order = await aOneStepOrder(gw, w, { amount: '500', stage: 'settled' });
      gw.clock.advance(1);
      const res = await gw.api('GET', `/orders/${order.id}`, { headers: w.headers });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        orderId: order.id,
        status: 'settled',
        type: 'subscribe',
        userId: w.us,
        distributorId: w.pt,
        amount: 500,
        updatedAt: expect.any(Number),
        settlement: { nav: '1.25', tokens: '400', amount: '500', transferHash: TRANSFER_HASH },
      });
      expect(res.body.data.investorId).toBeUndefined();
    });

    it('POST /orders/cancel/:orderId cancels a pending order; an accepted one is 409', async () => {
      const w = await world();
      const pending = await aOneStepOrder(gw, w);
      const accepted = await aOneStepOrder(gw, w, { stage: 'accepted' });
      const ok = await gw.api('POST', `/orders/cancel/${pending.id}`, { headers: w.headers });
      expect(ok.body).toEqual({ isError: false, errorMsg: 'NA', data: { success: true, message: 'order cancelled' } });
      const late = await gw.api('POST', `/orders/cancel/${accepted.id}`, { headers: w.headers });
      expect(late.status).toBe(409);
      expect(late.body).toEqual({ isError: true, errorMsg: 'order is no longer cancellable', data: {} });
      const unknown = await gw.api('GET', '/orders/ord_ffffffffffffffffffffffff', { headers: w.headers });
      expect(unknown.body).toEqual({ isError: true, errorMsg: 'order not found', data: {} });
    });
  });

  describe('GET /transaction/holdings/user/:userId/shareclass/:shareClassId', () => {
    it('returns tokenBalance as a decimal string, with wallet address, token name, symbol and decimals', async () => {
      const w = await world();
      await aOneStepOrder(gw, w, { amount: '1000', stage: 'settled' }); // 800 tokens
      const res = await gw.api('GET', `/transaction/holdings/user/${w.us}/shareclass/${w.shareClass.id}`, { headers: w.headers });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        userId: w.us,
        shareClassId: w.shareClass.id,
        tokenBalance: '800',
        unlockedBalance: '800',
        pendingIn: '0',
        pendingOut: '0',
        walletAddress: `0x${w.investor.id.toLowerCase().padStart(40, 'e')}`,
        chainId: CHAIN,
        tokenName: 'Test Token',
        symbol: 'TT',
        decimals: 6,
        tokenAddress: expect.stringMatching(/^0x/),
      });
    });

    it('pendingIn counts accepted subscriptions not yet settled at their priced tokens; pendingOut the tokens of open redemptions', async () => {
      const w = await world();
      await aOneStepOrder(gw, w, { amount: '1000', stage: 'settled' }); // 800 tokens held
      await aOneStepOrder(gw, w, { amount: '500', stage: 'accepted' }); // 400 expected
      await aOneStepOrder(gw, w, { amount: '250' }); // pending: not priced, not counted
      await aOneStepOrder(gw, w, { amount: '125', stage: 'failed' }); // never counted
      await aOneStepOrder(gw, w, { type: 'redeem', tokenCount: '30' }); // pending: promised
      await aOneStepOrder(gw, w, { type: 'redeem', tokenCount: '20', stage: 'accepted' }); // accepted: promised
      await aOneStepOrder(gw, w, { type: 'redeem', tokenCount: '10', stage: 'cancelled' }); // released
      const path = `/transaction/holdings/user/${w.us}/shareclass/${w.shareClass.id}`;
      const before = await gw.api('GET', path, { headers: w.headers });
      expect(before.body.data).toMatchObject({ tokenBalance: '800', unlockedBalance: '800', pendingIn: '400', pendingOut: '50' });
      const graphql = await gw.graphql(
        `{ holding(userId: "${w.investor.id}", shareClassId: "${w.shareClass.id}") { tokenBalance pendingIn pendingOut } }`,
        {},
        { token: await gw.opsToken() },
      );
      expect(graphql.body.data.holding).toEqual({ tokenBalance: '800', pendingIn: '400', pendingOut: '50' });
    });

    it('a user with no holding has tokenBalance "0" and no wallet yet is null', async () => {
      const w = await world();
      const walletless = await anInvestor(gw.em(), w.distributor, { walletChain: null });
      const res = await gw.api('GET', `/transaction/holdings/user/${alias(walletless.id, 'US')}/shareclass/${w.shareClass.id}`, { headers: w.headers });
      expect(res.body.data).toMatchObject({ tokenBalance: '0', walletAddress: null });
    });

    it('unknown user is 404 `userId not found`; unknown share class 404 `shareClassId not found`', async () => {
      const w = await world();
      const user = await gw.api('GET', `/transaction/holdings/user/US999999/shareclass/${w.shareClass.id}`, { headers: w.headers });
      expect(user.body).toEqual({ isError: true, errorMsg: 'userId not found', data: {} });
      const sc = await gw.api('GET', `/transaction/holdings/user/${w.us}/shareclass/SC999999`, { headers: w.headers });
      expect(sc.body).toEqual({ isError: true, errorMsg: 'shareClassId not found', data: {} });
    });
  });
});
