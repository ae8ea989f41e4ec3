import { aDistributor, aGrant, aMarket, aNav, aShareClass } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';

describe('Surface R: share classes and NAV', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  it('GET /funds/shareclass/all returns the share classes granted to the calling distributor as items and count', async () => {
    // given
    const { shareClass, hostA } = await aMarket(gw.em(), gw.clock.now());
    await aShareClass(gw.em()); // not granted to anyone
    // when
    const res = await gw.api('GET', '/funds/shareclass/all', { host: hostA });
    // then
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ isError: false, errorMsg: 'NA' });
    expect(res.body.data.count).toBe(1);
    expect(res.body.data.items.map((i: any) => i.shareClassId)).toEqual([shareClass.id]);
  });

  it('GET /funds/shareclass/:shareClassId returns every documented field of the share class', async () => {
    const { shareClass, hostA } = await aMarket(gw.em(), gw.clock.now());
    const res = await gw.api('GET', `/funds/shareclass/${shareClass.id}`, { host: hostA });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      shareClassId: shareClass.id,
      fundId: shareClass.fund.id,
      currency: 'USD',
      provider: 'supply-sim',
      status: 'active',
      feesSubBps: 10,
      feesRedBps: 5,
      feesMgmtBps: 20,
      feesPerfBps: 100,
      feesWatermarkBps: 0,
      meta: { name: 'Test Class A', manager: 'Test Manager' },
      details: { isin: 'LU0000000009', jurisdiction: 'LU', minimumInvestment_fiat: 0 },
      metrics: { apy_bps: 1250, tvl_fiat: '1000000.5', change7D: '0.25', currency: 'USD', maturity_days: -1 },
      overview: { assetClass: 'Money Market', description: 'Test share class', riskLevel: 2 },
      subRedemption: { subFreq: 1, redFreq: 1, cutOffTime_days: 0, lockup: 0, eligibleInvestors: 'PROF', distributionPolicy: 'Accumulating' },
      bank: { accountHolderName: 'Fund', accountNumber: 'LU930010000000000000', accountType: 'IBAN', bankName: 'Bank', swiftCode: 'BANKLULL', currency: 'USD' },
      defaultChainId: '11155111',
    });
  });

  it('a malformed share class id is 400 `invalid shareClassId format`', async () => {
    const { hostA } = await aMarket(gw.em(), gw.clock.now());
    for (const bad of ['SC12', 'XX000001', 'sc000001', 'SC00000A']) {
      const res = await gw.api('GET', `/funds/shareclass/${bad}`, { host: hostA });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ isError: true, errorMsg: 'invalid shareClassId format', data: {} });
    }
  });

  it('an unknown share class, or one not granted to the caller, is 404 `shareClassId not found`', async () => {
    const { hostA } = await aMarket(gw.em(), gw.clock.now());
    const ungranted = await aShareClass(gw.em());
    for (const id of ['SC999999', ungranted.id]) {
      const res = await gw.api('GET', `/funds/shareclass/${id}`, { host: hostA });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ isError: true, errorMsg: 'shareClassId not found', data: {} });
    }
  });

  it('GET /funds/shareclass/nav/live returns the latest NAV record with decimal strings and epoch-ms times', async () => {
    const { shareClass, hostA } = await aMarket(gw.em(), gw.clock.now());
    const later = new Date(Date.UTC(2031, 0, 2, 16, 0, 5));
    await aNav(gw.em(), shareClass, '1.2345', later);
    // A NAV is live once struck: the clock at it, not before.
    gw.clock.set(later);
    const res = await gw.api('GET', `/funds/shareclass/nav/live?shareClassId=${shareClass.id}`, { host: hostA });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      entryId: '20310102160005',
      shareClassId: shareClass.id,
      close: '1.2345',
      open: '1.2345',
      high: '1.2345',
      low: '1.2345',
      currency: 'USD',
      publishedAt: later.getTime(),
      createdBy: 'factory',
    });
    expect(typeof res.body.data.createdAt).toBe('number');
  });

  it('live NAV without any NAV is 404 `No NAV published`; without shareClassId it is 400', async () => {
    const distributor = await aDistributor(gw.em(), ['dist-a.test']);
    const sc = await aShareClass(gw.em());
    await aGrant(gw.em(), distributor, sc);
    const none = await gw.api('GET', `/funds/shareclass/nav/live?shareClassId=${sc.id}`, { host: 'dist-a.test' });
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ isError: true, errorMsg: 'No NAV published', data: {} });
    const missing = await gw.api('GET', '/funds/shareclass/nav/live', { host: 'dist-a.test' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ isError: true, errorMsg: 'shareClassId is required', data: {} });
  });

  describe('NAV history', () => {
    const day = (d: number) => new Date(Date.UTC(2030, 0, 1 + d, 16));

    async function withHistory(days: number) {
      const world = await aMarket(gw.em(), new Date(Date.UTC(2029, 0, 1)));
      for (let d = 0; d < days; d++) await aNav(gw.em(), world.shareClass, `1.${String(d).padStart(4, '0')}`, day(d));
      // The clock after the last of them: history holds only NAVs struck by now.
      gw.clock.set(day(days));
      return world;
    }

    it('with both startDate and endDate returns the entries in the inclusive range, ascending by publishedAt', async () => {
      const { shareClass, hostA } = await withHistory(10);
      const res = await gw.api('GET', `/funds/shareclass/nav/history?shareClassId=${shareClass.id}&startDate=${day(2).getTime()}&endDate=${day(5).getTime()}`, {
        host: hostA,
      });
      expect(res.status).toBe(200);
      expect(res.body.data.map((n: any) => n.publishedAt)).toEqual([2, 3, 4, 5].map((d) => day(d).getTime()));
    });

    it('with neither bound returns the last 100 entries, ascending', async () => {
      const { shareClass, hostA } = await withHistory(130);
      const res = await gw.api('GET', `/funds/shareclass/nav/history?shareClassId=${shareClass.id}`, { host: hostA });
      const times = res.body.data.map((n: any) => n.publishedAt);
      expect(times).toHaveLength(100);
      expect(times[0]).toBe(day(30).getTime());
      expect(times[99]).toBe(day(129).getTime());
    });

    it('with only one bound behaves as if neither were given', async () => {
      const { shareClass, hostA } = await withHistory(105);
      const onlyStart = await gw.api('GET', `/funds/shareclass/nav/history?shareClassId=${shareClass.id}&startDate=${day(100).getTime()}`, { host: hostA });
      const onlyEnd = await gw.api('GET', `/funds/shareclass/nav/history?shareClassId=${shareClass.id}&endDate=${day(3).getTime()}`, { host: hostA });
      expect(onlyStart.body.data).toHaveLength(100);
      expect(onlyEnd.body.data).toHaveLength(100);
      expect(onlyStart.body.data[0].publishedAt).toBe(day(5).getTime());
    });

    it('fewer than 100 entries without a range is not an error', async () => {
      const { shareClass, hostA } = await withHistory(3);
      const res = await gw.api('GET', `/funds/shareclass/nav/history?shareClassId=${shareClass.id}`, { host: hostA });
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(4); // the market's own NAV and three more
    });

    it('a non-numeric date is 400', async () => {
      const { shareClass, hostA } = await withHistory(1);
      const res = await gw.api('GET', `/funds/shareclass/nav/history?shareClassId=${shareClass.id}&startDate=yesterday&endDate=1`, { host: hostA });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ isError: true, errorMsg: 'startDate must be a number', data: {} });
    });
  });
});
