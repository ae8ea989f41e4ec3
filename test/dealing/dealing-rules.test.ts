import { alias } from '../support/ids';
import { DomainEvent } from '../../src/events/event.entity';
import { Order } from '../../src/modules/order/order.entity';
import { orderWebhookData } from '../../src/modules/webhook/webhook-payload';
import { aTokenPair, bearerOf } from '../support/auth.factories';
import { aDealingCalendar } from '../support/dealing.factories';
import { aGrant, aMarket, aNav, anInvestor, aShareClass } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aOneStepOrder } from '../support/one-step.factories';
import { approvedCall, REQUEST_HOLDING_ADJUSTMENT } from '../support/approval.factories';
import { aTwoStepOrder, subscribeBody } from '../support/order.factories';

/*
 * The dealing rules over HTTP (issue 11): dealing dates at placement on both flows and both
 * surfaces, the ops order book by date, lock-up, minimum investment, currency, the exact fee
 * formula, exact id formats and ops holding adjustments.
 */

const DAY = 86_400_000;
const utc = (iso: string) => new Date(iso);

describe('Dealing rules', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  /** A market whose share class has a dealing calendar (and a NAV that stays live whatever the clock). */
  let base: Awaited<ReturnType<typeof aMarket>> | null = null;
  beforeEach(() => {
    base = null;
  });
  async function market(calendar: Parameters<typeof aDealingCalendar>[2] = {}, over: Parameters<typeof aShareClass>[1] = {}) {
    gw.clock.set(utc('2026-01-01T00:00:00Z'));
    const m = (base ??= await aMarket(gw.em(), gw.clock.now()));
    // Monday to Friday, the default dealing week these rules are about.
    const shareClass = await aShareClass(gw.em(), { dealingWeekdays: [1, 2, 3, 4, 5], ...over });
    await aGrant(gw.em(), m.distributor, shareClass);
    await aNav(gw.em(), shareClass, '1.25', gw.clock.now());
    const investor = await anInvestor(gw.em(), m.distributor, { grants: [shareClass] });
    if (Object.keys(calendar).length) await aDealingCalendar(gw, shareClass.id, calendar);
    return { ...m, shareClass, investor };
  }
  type Market = Awaited<ReturnType<typeof market>>;

  const oneStepSubscribe = (m: Market, body: Record<string, unknown> = {}) =>
    gw.api('POST', '/orders/subscribe', {
      host: m.hostA,
      body: { distributorId: m.distributor.id, investorId: m.investor.id, shareClassId: m.shareClass.id, amount: 1000, ...body },
    });
  const redeem = (m: Market, tokenCount: number) =>
    gw.api('POST', '/orders/redeem', {
      host: m.hostA,
      body: { distributorId: m.distributor.id, investorId: m.investor.id, shareClassId: m.shareClass.id, tokenCount },
    });
  const datesOf = (d: { dealingDate: string; cutOffAt: number; expectedSettlementDate: string }) => ({
    dealingDate: d.dealingDate,
    cutOffAt: new Date(d.cutOffAt).toISOString(),
    expectedSettlementDate: d.expectedSettlementDate,
  });
  const opsQuery = async (query: string, variables: Record<string, unknown>) => gw.graphql(query, variables, { token: await gw.opsToken() });

  describe('dealing dates at placement', () => {
    it('an order before the cut-off is dealt that day, one after it the next business day (both flows, both surfaces)', async () => {
      const m = await market({ timeZone: 'Europe/Luxembourg', cutOffTime: '12:00' });
      // Wednesday 18 November 2026, 11:59 in Luxembourg (CET, UTC+1)
      gw.clock.set(utc('2026-11-18T10:59:00Z'));
      const before = await aTwoStepOrder(gw, m);
      expect(datesOf(before)).toEqual({ dealingDate: '2026-11-18', cutOffAt: '2026-11-18T11:00:00.000Z', expectedSettlementDate: '2026-11-19' });
      gw.clock.set(utc('2026-11-18T11:00:00Z'));
      const after = await oneStepSubscribe(m);
      expect(after.status).toBe(200);
      expect(datesOf(after.body.data)).toEqual({ dealingDate: '2026-11-19', cutOffAt: '2026-11-19T11:00:00.000Z', expectedSettlementDate: '2026-11-20' });
      // The same dates on every read: REST two-step and one-step, surface O, GraphQL.
      expect(datesOf((await gw.api('GET', `/orders/${before.orderId}`, { host: m.hostA })).body.data)).toEqual(datesOf(before));
      expect(datesOf((await gw.api('GET', `/orders/${after.body.data.orderId}`, { host: m.hostA })).body.data)).toEqual(datesOf(after.body.data));
      const onO = await gw.api('POST', '/orders/subscribe', {
        headers: await bearerOf(gw, m.distributor),
        body: { distributorId: alias(m.distributor.id, 'PT'), userId: alias(m.investor.id, 'US'), shareClassId: m.shareClass.id, amount: 1000 },
      });
      expect(datesOf(onO.body.data)).toEqual(datesOf(after.body.data));
      const gql = await opsQuery('query($id: ID!) { order(id: $id) { dealingDate cutOffAt expectedSettlementDate } }', { id: before.orderId });
      expect(datesOf(gql.body.data!.order)).toEqual(datesOf(before));
    });

    it('a Friday-evening order is dealt Monday, or the next business day after a holiday; settlement skips holidays too', async () => {
      const m = await market({ timeZone: 'Europe/Luxembourg', cutOffTime: '12:00' });
      gw.clock.set(utc('2026-11-20T18:00:00Z')); // Friday evening
      expect(datesOf(await aTwoStepOrder(gw, m))).toEqual({
        dealingDate: '2026-11-23',
        cutOffAt: '2026-11-23T11:00:00.000Z',
        expectedSettlementDate: '2026-11-24',
      });
      // Ops declare Monday and Wednesday holidays: Tuesday deals, settling Thursday.
      const added = await opsQuery('mutation($id: ID!, $d: [String!]!) { addDealingHolidays(shareClassId: $id, dates: $d) { holidays } }', {
        id: m.shareClass.id,
        d: ['2026-11-25', '2026-11-23'],
      });
      expect(added.body.data!.addDealingHolidays.holidays).toEqual(['2026-11-23', '2026-11-25']);
      expect(datesOf(await aTwoStepOrder(gw, m))).toEqual({
        dealingDate: '2026-11-24',
        cutOffAt: '2026-11-24T11:00:00.000Z',
        expectedSettlementDate: '2026-11-26',
      });
    });

    it('reads the cut-off in each share class zone, across a daylight-saving change', async () => {
      const ny = await market({ timeZone: 'America/New_York', cutOffTime: '16:00' });
      const lux = await market({ timeZone: 'Europe/Luxembourg', cutOffTime: '16:00' });
      // Friday 30 October 2026, 19:30Z: 15:30 in New York (EDT, before its cut-off), 20:30 in Luxembourg (CET, after).
      gw.clock.set(utc('2026-10-30T19:30:00Z'));
      expect(datesOf(await aTwoStepOrder(gw, ny))).toEqual({
        dealingDate: '2026-10-30',
        cutOffAt: '2026-10-30T20:00:00.000Z',
        expectedSettlementDate: '2026-11-02',
      });
      expect(datesOf(await aTwoStepOrder(gw, lux))).toEqual({
        dealingDate: '2026-11-02',
        cutOffAt: '2026-11-02T15:00:00.000Z',
        expectedSettlementDate: '2026-11-03',
      });
      // After New York's cut-off: Monday, when New York is on EST (UTC-5), so 16:00 is 21:00Z.
      gw.clock.set(utc('2026-10-30T20:00:00Z'));
      expect(datesOf(await aTwoStepOrder(gw, ny))).toEqual({
        dealingDate: '2026-11-02',
        cutOffAt: '2026-11-02T21:00:00.000Z',
        expectedSettlementDate: '2026-11-03',
      });
    });

    it('deals every subFreq business days from the anchor, and redemptions every redFreq', async () => {
      const m = await market(
        { anchorDate: '2026-11-16' },
        { subRedemption: { subFreq: 3, redFreq: 2, cutOffTime_days: 0, lockup: 0, eligibleInvestors: 'PROF', distributionPolicy: 'Accumulating' } },
      );
      // Subscriptions deal on 16, 19, 24 November; redemptions on 16, 18, 20.
      gw.clock.set(utc('2026-11-17T09:00:00Z'));
      expect((await aTwoStepOrder(gw, m)).dealingDate).toBe('2026-11-19');
      gw.clock.set(utc('2026-11-20T09:00:00Z'));
      expect((await oneStepSubscribe(m)).body.data.dealingDate).toBe('2026-11-24');
      // Tokens to redeem: an order of the 24th, settled once that day's NAV is struck.
      gw.clock.set(utc('2026-11-24T09:00:00Z'));
      await aOneStepOrder(gw, m, { amount: '1000', stage: 'settled' });
      gw.clock.set(utc('2026-11-19T09:00:00Z'));
      const r = await redeem(m, 1);
      expect([r.status, r.body.data.dealingDate]).toEqual([200, '2026-11-20']);
    });

    it('a share class without a calendar deals every weekday in UTC, cut-off at the end of the day', async () => {
      const m = await market();
      gw.clock.set(utc('2026-11-21T12:00:00Z')); // Saturday
      expect(datesOf(await aTwoStepOrder(gw, m))).toEqual({
        dealingDate: '2026-11-23',
        cutOffAt: '2026-11-24T00:00:00.000Z',
        expectedSettlementDate: '2026-11-24',
      });
    });

    it('webhook data carries the dates fixed at placement', async () => {
      const m = await market({ timeZone: 'Asia/Tokyo', cutOffTime: '15:00', settlementLagDays: 2 });
      gw.clock.set(utc('2026-11-16T23:30:00Z')); // already Tuesday in Tokyo
      const order = await aOneStepOrder(gw, m, { stage: 'accepted' });
      const events = await gw.em().find(DomainEvent, { aggregateId: order.id }, { orderBy: { position: 'asc' } });
      const stored = await gw.em().findOneOrFail(Order, order.id);
      const data = orderWebhookData(events[events.length - 1], stored);
      expect({ status: data.status, dealingDate: data.dealingDate, cutOffAt: data.cutOffAt, expectedSettlementDate: data.expectedSettlementDate }).toEqual({
        status: 'accepted',
        dealingDate: '2026-11-17',
        cutOffAt: Date.parse('2026-11-17T06:00:00Z'),
        expectedSettlementDate: '2026-11-19',
      });
    });
  });

  it('ops provision the calendar with checked fields; the share class reads it back; distributors may not change it', async () => {
    const m = await market();
    const set =
      'mutation($id: ID!, $i: DealingCalendarInput!) { setDealingCalendar(shareClassId: $id, input: $i) { timeZone cutOffTime settlementLagDays holidays settlementCurrencies } }';
    const ok = await opsQuery(set, {
      id: m.shareClass.id,
      i: { timeZone: 'Asia/Tokyo', cutOffTime: '15:00', holidays: ['2026-12-31', '2026-12-30'], settlementCurrencies: ['USDC'] },
    });
    expect(ok.body.data!.setDealingCalendar).toEqual({
      timeZone: 'Asia/Tokyo',
      cutOffTime: '15:00',
      settlementLagDays: 1,
      holidays: ['2026-12-30', '2026-12-31'],
      settlementCurrencies: ['USDC'],
    });
    const read = await opsQuery('query($id: ID!) { shareClass(id: $id) { dealingCalendar { timeZone cutOffTime } } }', { id: m.shareClass.id });
    expect(read.body.data!.shareClass.dealingCalendar).toEqual({ timeZone: 'Asia/Tokyo', cutOffTime: '15:00' });
    for (const [input, message] of [
      [{ timeZone: 'Mars/Olympus' }, 'timeZone must be an IANA time zone such as Europe/Luxembourg'],
      [{ cutOffTime: '25:00' }, 'cutOffTime must be HH:MM from 00:00 to 24:00'],
      [{ holidays: ['2026-02-30'] }, 'holidays must be a date YYYY-MM-DD'],
      [{ settlementLagDays: 31 }, 'settlementLagDays must be an integer from 0 to 30'],
      [{ settlementCurrencies: ['usdc'] }, 'settlementCurrencies must be upper-case currency codes such as USDC'],
    ] as const) {
      const res = await opsQuery(set, { id: m.shareClass.id, i: input });
      expect(res.body.errors![0]).toMatchObject({ message, extensions: { code: 'BAD_USER_INPUT' } });
    }
    const { accessToken } = await aTokenPair(gw, m.distributor);
    const foreign = await gw.graphql(set, { id: m.shareClass.id, i: { cutOffTime: '10:00' } }, { token: accessToken });
    expect(foreign.body.errors![0]).toMatchObject({ extensions: { code: 'FORBIDDEN' } });
  });

  it('ops see what is dealt and due on a date, and what is late', async () => {
    const m = await market({ timeZone: 'Europe/Luxembourg', cutOffTime: '12:00' });
    gw.clock.set(utc('2026-11-18T09:00:00Z'));
    const wed = await aTwoStepOrder(gw, m);
    gw.clock.set(utc('2026-11-19T09:00:00Z'));
    const thu = await aOneStepOrder(gw, m, { stage: 'accepted' });
    const q = 'query($f: OrderFilter!) { orders(filter: $f) { items { orderId: id dealingDate expectedSettlementDate } } }';
    const ids = async (f: Record<string, unknown>) => (await opsQuery(q, { f })).body.data!.orders.items.map((i: { orderId: string }) => i.orderId);
    expect(await ids({ dealingDate: '2026-11-18' })).toEqual([wed.orderId]);
    expect(await ids({ expectedSettlementDate: '2026-11-20' })).toEqual([thu.id]);
    expect(await ids({ expectedSettlementBefore: '2026-11-20' })).toEqual([wed.orderId]);
    expect(await ids({ expectedSettlementBefore: '2026-11-21', status: 'accepted' })).toEqual([thu.id]);
    const bad = await opsQuery(q, { f: { dealingDate: '18/11/2026' } });
    expect(bad.body.errors![0]).toMatchObject({ message: 'dealingDate must be a date YYYY-MM-DD', extensions: { code: 'BAD_USER_INPUT' } });
  });

  describe('lock-up', () => {
    const LOCKED = { subFreq: 1, redFreq: 1, cutOffTime_days: 0, lockup: 30, eligibleInvestors: 'PROF', distributionPolicy: 'Accumulating' };

    it('a redemption inside the lock-up is refused naming the unlocked amount and the date; allowed once the clock passes it', async () => {
      const m = await market({}, { subRedemption: LOCKED });
      gw.clock.set(utc('2026-11-02T10:00:00Z'));
      await aOneStepOrder(gw, m, { amount: '1000', stage: 'settled' }); // 800 tokens settled now
      const holdings = async () =>
        (
          await gw.api('GET', `/transaction/holdings/user/${alias(m.investor.id, 'US')}/shareclass/${m.shareClass.id}`, {
            headers: await bearerOf(gw, m.distributor),
          })
        ).body.data;
      expect(await holdings()).toMatchObject({ tokenBalance: '800', unlockedBalance: '0' });

      const locked = await redeem(m, 100);
      expect([locked.status, locked.body]).toEqual([
        400,
        { isError: true, errorMsg: 'tokenCount exceeds unlocked holdings: 0 unlocked, the rest unlocks on 2026-12-02', data: {} },
      ]);
      const tooMany = await redeem(m, 801);
      expect([tooMany.status, tooMany.body.errorMsg]).toEqual([400, 'tokenCount exceeds holdings']);

      gw.clock.advance(30 * DAY);
      expect(await holdings()).toMatchObject({ tokenBalance: '800', unlockedBalance: '800' });
      const allowed = await redeem(m, 100);
      expect([allowed.status, allowed.body.data.status]).toEqual([200, 'pending']);
    });

    it('ops holding adjustments are lots with their date, seen at once by redemptions and the holdings endpoint', async () => {
      const m = await market({}, { subRedemption: LOCKED });
      gw.clock.set(utc('2026-11-02T10:00:00Z'));
      await aOneStepOrder(gw, m, { amount: '1000', stage: 'settled' }); // 800 tokens, locked until 2 December
      // (a holding adjustment is requested by one principal and approved by another: test/support/approval.factories.ts)
      const adjust = (input: Record<string, unknown>, headers?: Record<string, string>) =>
        approvedCall(gw, REQUEST_HOLDING_ADJUSTMENT, 'requestHoldingAdjustment', { input }, headers);
      const input = {
        investorId: m.investor.id,
        shareClassId: m.shareClass.id,
        quantity: '200',
        reason: 'transfer in from the previous register',
        settledAt: Date.parse('2026-09-01T00:00:00Z'),
      };
      const res = await adjust(input, { 'x-actor': 'ops-jane' });
      expect(res.result).toMatchObject({ tokenBalance: '1000', unlockedBalance: '200' });
      const event = await gw
        .em()
        .findOneOrFail(DomainEvent, { type: 'holding.changed', aggregateId: `${m.investor.id}:${m.shareClass.id}` }, { orderBy: { position: 'desc' } });
      expect(event.payload).toMatchObject({ adjustment: true, reason: input.reason, change: '200', balance: '1000' });

      const over = await redeem(m, 201);
      expect(over.body.errorMsg).toBe('tokenCount exceeds unlocked holdings: 200 unlocked, the rest unlocks on 2026-12-02');
      expect((await redeem(m, 150)).status).toBe(200);
      // 150 are promised to the pending redemption: a correction may take only what is left.
      const correction = await adjust({ ...input, quantity: '-851', settledAt: null });
      expect(correction.errors![0]).toMatchObject({ message: 'quantity exceeds holdings', extensions: { code: 'BAD_USER_INPUT' } });
      const ok = await adjust({ ...input, quantity: '-50', reason: 'correction', settledAt: null });
      expect(ok.result).toMatchObject({ tokenBalance: '950', unlockedBalance: '150' });
    });
  });

  describe('minimum investment and currency', () => {
    it('a subscription below details.minimumInvestment_fiat is 400 naming the minimum and the currency, on both flows', async () => {
      const m = await market({}, { details: { isin: 'LU0000000009', jurisdiction: 'LU', minimumInvestment_fiat: 5000 } });
      const two = await gw.api('POST', '/orders/subscribe', { host: m.hostA, body: subscribeBody(m, { amountSubscription: 4999.99 }) });
      expect([two.status, two.body]).toEqual([400, { isError: true, errorMsg: 'amountSubscription is below the minimum investment of 5000 USD', data: {} }]);
      const one = await oneStepSubscribe(m, { amount: 100 });
      expect([one.status, one.body.errorMsg]).toEqual([400, 'amount is below the minimum investment of 5000 USD']);
      expect((await oneStepSubscribe(m, { amount: 5000 })).status).toBe(200);
    });

    it('a currency that is neither the share class currency nor an allowed settlement currency is 400 naming the allowed codes', async () => {
      const m = await market({ settlementCurrencies: ['USDC'] });
      const jpy = await gw.api('POST', '/orders/subscribe', { host: m.hostA, body: subscribeBody(m, { currency: 'JPY' }) });
      expect([jpy.status, jpy.body]).toEqual([400, { isError: true, errorMsg: 'currency must be one of USD, USDC', data: {} }]);
      const oneStep = await oneStepSubscribe(m, { currency: 'EUR' });
      expect([oneStep.status, oneStep.body.errorMsg]).toEqual([400, 'currency must be one of USD, USDC']);
      expect((await oneStepSubscribe(m, { currency: 'USDC' })).body.data.currency).toBe('USDC');
      const plain = await market();
      const refused = await oneStepSubscribe(plain, { currency: 'USDC' });
      expect(refused.body.errorMsg).toBe('currency must be one of USD');
    });
  });

  it("prices fees exactly as the description's formula: 12345 at 15 bps is 18.5175", async () => {
    const m = await market({}, { feesSubBps: 15 });
    const order = await aTwoStepOrder(gw, m, { amountSubscription: 12345 });
    expect([order.amountFeesTotal, order.amountPayable]).toEqual([18.5175, 12363.5175]);
  });

  describe('identifier formats', () => {
    it('an id with seven digits is 400 `invalid <field> format`, not a 404, in paths and bodies', async () => {
      const m = await market();
      const sc = await gw.api('GET', '/funds/shareclass/SC1234567', { host: m.hostA });
      expect([sc.status, sc.body]).toEqual([400, { isError: true, errorMsg: 'invalid shareClassId format', data: {} }]);
      const bodies: [Record<string, unknown>, string][] = [
        [{ shareClassId: 'SC1234567' }, 'invalid shareClassId format'],
        [{ distributorId: 'DT1234567' }, 'invalid distributorId format'],
        [{ investorId: 'IN1234567' }, 'invalid investorId format'],
      ];
      for (const [over, message] of bodies) {
        const two = await gw.api('POST', '/orders/subscribe', { host: m.hostA, body: subscribeBody(m, over) });
        const one = await oneStepSubscribe(m, over);
        expect([two.status, two.body.errorMsg, one.status, one.body.errorMsg]).toEqual([400, message, 400, message]);
      }
      const list = await gw.api('GET', '/orders/subscriptions/distributor/DT1234567', { host: m.hostA });
      expect([list.status, list.body.errorMsg]).toEqual([400, 'invalid distributorId format']);
      const order = await gw.api('GET', '/orders/OR1234567', { host: m.hostA });
      expect([order.status, order.body.errorMsg]).toEqual([400, 'invalid orderId format']);
      const holding = await gw.api('GET', `/transaction/holdings/user/US1234567/shareclass/${m.shareClass.id}`, { headers: await bearerOf(gw, m.distributor) });
      expect([holding.status, holding.body.errorMsg]).toEqual([400, 'invalid userId format']);
    });
  });
});
