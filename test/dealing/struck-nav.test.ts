import { Nav } from '../../src/modules/nav/nav.entity';
import { NAV_CLOCK_SKEW_MS } from '../../src/modules/nav/nav.service';
import { aMarket, aNav, aShareClass } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aTwoStepOrder } from '../support/order.factories';
import { TRANSFER_HASH } from '../support/one-step.factories';

/** These tests are about time: a move of any size is confirmed at once (tolerance: nav-confirmation.test.ts). */
const ANY_MOVE = { navToleranceOverrideBps: 10_000 };

/*
 * Struck, not predicted (issue 44): a NAV dated ahead of now is refused; the live NAV, history and
 * every price are of NAVs at or before now; a share class deals on the days of its dealing week, so
 * a daily class deals and settles on a Sunday while a Monday-to-Friday class's Saturday order waits
 * for Monday's NAV to be struck.
 */

// 2031-03-01 is a Saturday, 2031-03-02 a Sunday, 2031-03-03 a Monday.
const SATURDAY = new Date('2031-03-01T10:00:00Z');
const SUNDAY = new Date('2031-03-02T10:00:00Z');
const MONDAY_NOON = new Date('2031-03-03T12:00:00Z');

const PUBLISH = 'mutation($input: PublishNavInput!) { publishNav(input: $input) { close publishedAt } }';
const ACCEPT = 'mutation($id: ID!) { acceptOneStepOrder(orderId: $id) { status } }';
const SETTLE = 'mutation($id: ID!, $h: String) { settleOneStepOrder(orderId: $id, transferHash: $h) { status settlementNav settlementTokens } }';

describe('A NAV is struck, not predicted', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  const ops = async (query: string, variables: Record<string, unknown>) => (await gw.graphql(query, variables, { token: await gw.opsToken() })).body;
  const live = async (m: { shareClass: { id: string }; hostA: string }) =>
    (await gw.api('GET', `/funds/shareclass/nav/live?shareClassId=${m.shareClass.id}`, { host: m.hostA })).body;
  const history = async (m: { shareClass: { id: string }; hostA: string }) =>
    (await gw.api('GET', `/funds/shareclass/nav/history?shareClassId=${m.shareClass.id}`, { host: m.hostA })).body.data.map((n: { close: string }) => n.close);

  it('publishNav refuses a publishedAt beyond the clock skew with BAD_REQUEST and stores nothing; the live NAV and prices stay', async () => {
    // given a share class whose live NAV of 1.25 was struck a minute ago, on a Saturday
    gw.clock.set(SATURDAY);
    const m = await aMarket(gw.em(), gw.clock.now(), ANY_MOVE);
    // when ops publish Monday's NAV ahead, or one a second beyond the skew
    for (const at of [MONDAY_NOON.getTime(), SATURDAY.getTime() + NAV_CLOCK_SKEW_MS + 1000]) {
      const res = await ops(PUBLISH, { input: { shareClassId: m.shareClass.id, close: '2', publishedAt: at } });
      // then it is refused with its reason, and nothing is stored
      expect(res.data).toBeNull();
      expect(res.errors?.[0]).toMatchObject({
        message: "publishedAt must not be in the future: a NAV is struck, not predicted (at most 60 s ahead of the gateway's clock)",
        extensions: { code: 'BAD_USER_INPUT' },
      });
    }
    expect(await gw.em().count(Nav, { shareClass: m.shareClass.id })).toBe(1);
    expect((await live(m)).data).toMatchObject({ close: '1.25' });
    expect(await aTwoStepOrder(gw, m)).toMatchObject({ nav: '1.25', amountTokensEstimated: '800' });
  });

  it('a NAV within the skew is stored but live, in history and pricing only from its publishedAt; the cached live NAV follows the clock', async () => {
    gw.clock.set(SATURDAY);
    const m = await aMarket(gw.em(), gw.clock.now(), ANY_MOVE);
    expect((await live(m)).data).toMatchObject({ close: '1.25' }); // cached from here on
    // when ops publish a NAV 30 s ahead (a clock a little fast)
    const ahead = SATURDAY.getTime() + 30_000;
    const published = await ops(PUBLISH, { input: { shareClassId: m.shareClass.id, close: '2', publishedAt: ahead } });
    expect(published.data.publishNav).toEqual({ close: '2', publishedAt: ahead });
    // then until then it is nowhere: not live, not in history, pricing nothing
    expect((await live(m)).data).toMatchObject({ close: '1.25' });
    expect(await history(m)).toEqual(['1.25']);
    expect(await aTwoStepOrder(gw, m)).toMatchObject({ nav: '1.25' });
    // and from its publishedAt it is live, though the cache's lifetime has not run out
    gw.clock.set(new Date(ahead));
    expect((await live(m)).data).toMatchObject({ close: '2', publishedAt: ahead });
    expect(await history(m)).toEqual(['1.25', '2']);
    expect(await aTwoStepOrder(gw, m)).toMatchObject({ nav: '2', amountTokensEstimated: '500' });
  });

  it('a NAV stored with a future publishedAt (written before this rule) is never live, listed or priced before its time', async () => {
    gw.clock.set(SATURDAY);
    const m = await aMarket(gw.em(), gw.clock.now(), ANY_MOVE);
    await aNav(gw.em(), m.shareClass, '4', MONDAY_NOON);
    expect((await live(m)).data).toMatchObject({ close: '1.25' });
    expect(await history(m)).toEqual(['1.25']);
    expect(await aTwoStepOrder(gw, m)).toMatchObject({ nav: '1.25' });
    const liveNav = await ops('query($id: ID!) { shareClass(id: $id) { liveNav { close } } }', { id: m.shareClass.id });
    expect(liveNav.data.shareClass.liveNav).toEqual({ close: '1.25' });
  });

  describe('the dealing week', () => {
    const placeOneStep = async (m: Awaited<ReturnType<typeof aMarket>>) => {
      const res = await gw.api('POST', '/orders/subscribe', {
        host: m.hostA,
        body: { distributorId: m.distributor.id, investorId: m.investor.id, shareClassId: m.shareClass.id, amount: 1000 },
      });
      expect(res.status).toBe(200);
      return res.body.data as { orderId: string; dealingDate: string; expectedSettlementDate: string };
    };

    it('a class that deals every day deals and settles a Sunday order at the NAV struck that Sunday', async () => {
      // given a share class dealing every day (the factories' week), on a Sunday
      gw.clock.set(SUNDAY);
      const m = await aMarket(gw.em(), gw.clock.now(), ANY_MOVE);
      expect(m.shareClass.dealingWeekdays).toEqual([1, 2, 3, 4, 5, 6, 7]);
      // when an order is placed, accepted, the day's NAV struck now, and the order settled
      const order = await placeOneStep(m);
      expect(order).toMatchObject({ dealingDate: '2031-03-02', expectedSettlementDate: '2031-03-03' });
      expect((await ops(ACCEPT, { id: order.orderId })).data.acceptOneStepOrder.status).toBe('accepted');
      gw.clock.advance(60_000);
      expect((await ops(PUBLISH, { input: { shareClassId: m.shareClass.id, close: '2' } })).errors).toBeUndefined();
      const settled = await ops(SETTLE, { id: order.orderId, h: TRANSFER_HASH });
      // then it settles that Sunday at that NAV
      expect(settled.errors).toBeUndefined();
      expect(settled.data.settleOneStepOrder).toEqual({ status: 'settled', settlementNav: '2', settlementTokens: '500' });
    });

    it("a Monday-to-Friday class's Saturday order is dealt Monday and settles only once Monday's NAV is struck", async () => {
      // given a share class set by ops to deal Monday to Friday, on a Saturday
      gw.clock.set(SATURDAY);
      const m = await aMarket(gw.em(), gw.clock.now(), ANY_MOVE);
      const set = await ops('mutation($id: ID!, $input: UpdateShareClassInput!) { updateShareClass(id: $id, input: $input) { dealingWeekdays } }', {
        id: m.shareClass.id,
        input: { dealingWeekdays: [5, 4, 3, 2, 1, 1] },
      });
      expect(set.data.updateShareClass.dealingWeekdays).toEqual([1, 2, 3, 4, 5]);
      const calendar = await ops('query($id: ID!) { dealingPreview(shareClassId: $id, count: 1) { dealingWeekdays subscriptions { dealingDate } } }', {
        id: m.shareClass.id,
      });
      expect(calendar.data.dealingPreview).toEqual({ dealingWeekdays: [1, 2, 3, 4, 5], subscriptions: [{ dealingDate: '2031-03-03' }] });
      // when an order is placed and accepted on Saturday
      const order = await placeOneStep(m);
      expect(order).toMatchObject({ dealingDate: '2031-03-03', expectedSettlementDate: '2031-03-04' });
      await ops(ACCEPT, { id: order.orderId });
      // then Saturday's NAV does not settle it, and Monday's cannot be published ahead
      await ops(PUBLISH, { input: { shareClassId: m.shareClass.id, close: '2' } });
      const early = await ops(SETTLE, { id: order.orderId, h: TRANSFER_HASH });
      expect(early.errors?.[0]).toMatchObject({
        message: 'No NAV published for dealing date 2031-03-03: the orders of that date are priced at it, so they settle once it is',
        extensions: { code: 'CONFLICT' },
      });
      const ahead = await ops(PUBLISH, { input: { shareClassId: m.shareClass.id, close: '4', publishedAt: MONDAY_NOON.getTime() } });
      expect(ahead.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
      // and on Monday, once Monday's NAV is struck, it settles at that NAV
      gw.clock.set(MONDAY_NOON);
      await ops(PUBLISH, { input: { shareClassId: m.shareClass.id, close: '4' } });
      const settled = await ops(SETTLE, { id: order.orderId, h: TRANSFER_HASH });
      expect(settled.data.settleOneStepOrder).toEqual({ status: 'settled', settlementNav: '4', settlementTokens: '250' });
    });

    it('a dealing week must be ISO weekdays 1 to 7, at least one: anything else is 400 and changes nothing', async () => {
      const sc = await aShareClass(gw.em());
      for (const bad of [[], [0], [8], [1, 9]]) {
        const res = await ops('mutation($id: ID!, $input: UpdateShareClassInput!) { updateShareClass(id: $id, input: $input) { dealingWeekdays } }', {
          id: sc.id,
          input: { dealingWeekdays: bad },
        });
        expect(res.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
        expect(res.errors?.[0].message).toContain('dealingWeekdays must be ISO weekdays from 1 (Monday) to 7 (Sunday), at least one');
      }
      expect((await ops('query($id: ID!) { shareClass(id: $id) { dealingWeekdays } }', { id: sc.id })).data.shareClass.dealingWeekdays).toEqual([
        1, 2, 3, 4, 5, 6, 7,
      ]);
    });
  });
});
