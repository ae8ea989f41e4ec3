import { startTestGateway, type TestGateway } from '../support/gateway';
import { Distributor } from '../../src/modules/distributor/distributor.entity';
import { aTokenPair } from '../support/auth.factories';
import { aFundViaOps, aShareClassViaOps, asOps, opsError } from '../support/ops.factories';

/*
 * The onboarding checklists (ShareClass.onboarding, Distributor.onboarding) and the dealing-date
 * preview, as the ops console reads them, against what the REST facade answers a real order at
 * each step: a checklist that says something is missing shows the very message placement
 * answers, and one that says "ready" is followed by an order that succeeds.
 */
describe('Onboarding checklists and the dealing preview (GraphQL)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  const HOST = 'onboard.test';
  const WALLET = `0x${'ab'.repeat(20)}`;
  const CHECKLIST = `onboarding { ready items { key label done blocking refusal subject } }`;

  async function aShareClass(over: Record<string, unknown> = {}) {
    const { fund } = await aFundViaOps(gw);
    const created = await aShareClassViaOps(gw, fund.id, { details: { isin: 'LU2900000030', jurisdiction: 'LU', minimumInvestment_fiat: 0 }, ...over });
    return created.id as string;
  }
  const shareClassChecklist = async (id: string) => (await asOps(gw, `query($id: ID!) { shareClass(id: $id) { ${CHECKLIST} } }`, { id })).shareClass.onboarding;
  const distributorChecklist = async (id: string) =>
    (await asOps(gw, `query($id: ID!) { distributor(id: $id) { ${CHECKLIST} } }`, { id })).distributor.onboarding;
  type Item = { key: string; done: boolean; blocking: boolean; refusal: string | null };
  const byKey = (c: { items: Item[] }, key: string) => c.items.find((i) => i.key === key)!;
  const missingBlocking = (c: { items: Item[] }) => c.items.filter((i) => !i.done && i.blocking).map((i) => i.key);

  it('a new share class lists what it lacks with the messages placement answers, until it is ready', async () => {
    const sc = await aShareClass();
    let c = await shareClassChecklist(sc);
    expect(c.ready).toBe(false);
    expect(c.items.map((i: { key: string }) => i.key)).toEqual(['status', 'primaryToken', 'nav', 'grant', 'calendar', 'provider']);
    expect(byKey(c, 'status')).toMatchObject({ done: true, refusal: null });
    expect(byKey(c, 'primaryToken')).toMatchObject({ done: false, blocking: true, refusal: `Share class ${sc} has no default chain` });
    expect(byKey(c, 'nav')).toMatchObject({ done: false, blocking: true, refusal: 'No NAV published' });
    expect(byKey(c, 'grant')).toMatchObject({ done: false, blocking: true, refusal: 'shareClassId not found' });
    expect(byKey(c, 'calendar')).toMatchObject({ done: false, blocking: false, refusal: null });
    // No supply-side platform is configured in this gateway: advisory (one-step orders need none).
    expect(byKey(c, 'provider')).toMatchObject({ done: false, blocking: false, refusal: 'supply-side platform supply-sim is not configured' });

    await asOps(
      gw,
      `mutation($sc: ID!) { createToken(input: {shareClassId: $sc, chainId: "11155111", contractAddress: "0x${'12'.repeat(20)}", name: "T", symbol: "T", decimals: 6}) { id } }`,
      { sc },
    );
    await asOps(gw, `mutation($sc: String!) { publishNav(input: {shareClassId: $sc, close: "1.05"}) { entryId } }`, { sc });
    const { createDistributor } = await asOps(gw, `mutation { createDistributor(input: {name: "D"}) { id } }`);
    await asOps(
      gw,
      `mutation($d: ID!, $sc: ID!) { grantShareClass(input: {distributorId: $d, shareClassId: $sc, deliveryMode: passthrough}) { shareClassId } }`,
      { d: createDistributor.id, sc },
    );
    await asOps(gw, `mutation($sc: ID!) { setDealingCalendar(shareClassId: $sc, input: {timeZone: "Europe/Luxembourg"}) { timeZone } }`, { sc });
    c = await shareClassChecklist(sc);
    expect(missingBlocking(c)).toEqual([]);
    expect(c.ready).toBe(true);
    expect(byKey(c, 'calendar').done).toBe(true);

    await asOps(gw, `mutation($sc: ID!) { updateShareClass(id: $sc, input: {status: "closed"}) { id } }`, { sc });
    c = await shareClassChecklist(sc);
    expect(c.ready).toBe(false);
    expect(byKey(c, 'status')).toMatchObject({ done: false, refusal: `share class ${sc} is closed: it takes no new orders` });
  });

  it("a distributor's checklist follows onboarding step by step, each refusal equal to the REST answer of an order at that step", async () => {
    const sc = await aShareClass();
    const { createDistributor } = await asOps(gw, `mutation { createDistributor(input: {name: "Onboarded"}) { id } }`);
    const DT = createDistributor.id as string;
    let c = await distributorChecklist(DT);
    expect(c.ready).toBe(false);
    expect(missingBlocking(c)).toEqual(['host', 'credential', 'grant', 'investor', 'investorWallet']);
    expect(byKey(c, 'standing')).toMatchObject({ done: true });
    expect(byKey(c, 'host').refusal).toBe('host <its hostname> is not provisioned for any distributor');
    expect(byKey(c, 'credential').refusal).toBe('invalid api key or secret');
    expect(byKey(c, 'investorWallet').refusal).toBe('investorId not found');

    // a host: the credential is no longer needed (one door is enough)
    await asOps(gw, `mutation($d: ID!) { addDistributorHost(input: {distributorId: $d, hostname: "${HOST}"}) { hostname } }`, { d: DT });
    const reg = await gw.api('POST', '/investor/register', { host: HOST, body: { distributorId: DT, externalInvestorId: 'crm-1', email: 'new@example.com' } });
    expect(reg.status).toBe(200);
    const IN = reg.body.data.investorId as string;
    c = await distributorChecklist(DT);
    expect(byKey(c, 'host').done).toBe(true);
    expect(byKey(c, 'credential')).toMatchObject({ done: false, blocking: false });
    expect(byKey(c, 'investor').done).toBe(true);
    const twoStep = () =>
      gw.api('POST', '/orders/subscribe', { host: HOST, body: { distributorId: DT, investorId: IN, shareClassId: sc, amountSubscription: 1000 } });
    // an investor but no grant: what placement answers
    let placed = await twoStep();
    expect(placed.status).toBe(404);
    expect(byKey(c, 'investorWallet')).toMatchObject({ done: false, refusal: placed.body.errorMsg });
    expect(placed.body.errorMsg).toBe('shareClassId not found');

    await asOps(gw, `mutation($d: ID!, $sc: ID!) { grantShareClass(input: {distributorId: $d, shareClassId: $sc, deliveryMode: hold}) { shareClassId } }`, {
      d: DT,
      sc,
    });
    c = await distributorChecklist(DT);
    expect(byKey(c, `grant:${sc}`)).toMatchObject({ done: false, blocking: true, refusal: `Share class ${sc} has no default chain` });
    // the same message the two-step placement answers
    placed = await twoStep();
    expect(placed.status).toBe(409);
    expect(byKey(c, 'investorTwoStep')).toMatchObject({ done: false, blocking: false, refusal: placed.body.errorMsg });
    expect(placed.body.errorMsg).toBe(`Investor not granted access to ${sc}`);
    expect(byKey(c, 'investorWallet')).toMatchObject({
      done: false,
      refusal: 'chainId and walletAddress are required (on the order or the investor profile) before settlement',
    });

    await asOps(
      gw,
      `mutation($sc: ID!) { createToken(input: {shareClassId: $sc, chainId: "11155111", contractAddress: "0x${'12'.repeat(20)}", name: "T", symbol: "T", decimals: 6}) { id } }`,
      { sc },
    );
    await asOps(gw, `mutation($i: ID!, $sc: ID!) { grantInvestorShareClass(input: {investorId: $i, shareClassId: $sc}) { id } }`, { i: IN, sc });
    await asOps(
      gw,
      `mutation($i: ID!) { addInvestorWallet(input: {investorId: $i, chainId: "11155111", address: "${WALLET}", whitelisted: true}) { status } }`,
      { i: IN },
    );
    c = await distributorChecklist(DT);
    expect(byKey(c, 'investorTwoStep').done).toBe(true);
    expect(byKey(c, 'investorWallet').done).toBe(true);
    // hold delivery without the distributor's wallet: after the NAV, the grant still cannot trade
    expect(byKey(c, `grant:${sc}`).refusal).toBe('No NAV published');
    await asOps(gw, `mutation($sc: String!) { publishNav(input: {shareClassId: $sc, close: "1.05"}) { entryId } }`, { sc });
    c = await distributorChecklist(DT);
    expect(byKey(c, `grant:${sc}`).refusal).toBe('No wallet configured for distributor on chain 11155111');
    placed = await twoStep();
    expect(placed.body.errorMsg).toBe('No wallet configured for distributor on chain 11155111');
    expect(c.ready).toBe(false);

    await asOps(
      gw,
      `mutation($d: ID!) { setDistributorWallet(input: {distributorId: $d, chainId: "11155111", address: "0x${'cd'.repeat(20)}"}) { address } }`,
      { d: DT },
    );
    c = await distributorChecklist(DT);
    expect(missingBlocking(c)).toEqual([]);
    expect(c.ready).toBe(true);
    // ready means an order succeeds, in both flows
    placed = await twoStep();
    expect(placed.status).toBe(200);
    const oneStep = await gw.api('POST', '/orders/subscribe', { host: HOST, body: { distributorId: DT, investorId: IN, shareClassId: sc, amount: 1000 } });
    expect(oneStep.status).toBe(200);

    // suspended: the refusal every door answers
    await asOps(gw, `mutation($d: ID!) { updateDistributor(id: $d, input: {status: "suspended"}) { id } }`, { d: DT });
    c = await distributorChecklist(DT);
    expect(c.ready).toBe(false);
    const refused = await twoStep();
    expect(refused.status).toBe(403);
    expect(byKey(c, 'standing')).toMatchObject({ done: false, refusal: refused.body.errorMsg });
  });

  it('the preview and the checklists are for ops only: nobody is refused, a distributor sees its share classes without them', async () => {
    const sc = await aShareClass();
    const res = await gw.graphql(`query($id: ID!) { dealingPreview(shareClassId: $id) { timeZone } }`, { id: sc });
    expect(res.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const { createDistributor } = await asOps(gw, `mutation { createDistributor(input: {name: "D"}) { id } }`);
    await asOps(
      gw,
      `mutation($d: ID!, $sc: ID!) { grantShareClass(input: {distributorId: $d, shareClassId: $sc, deliveryMode: passthrough}) { shareClassId } }`,
      { d: createDistributor.id, sc },
    );
    const { accessToken } = await aTokenPair(gw, await gw.em().findOneOrFail(Distributor, createDistributor.id));
    const asDistributor = await gw.graphql(`{ shareClasses { id onboarding { ready items { refusal } } } }`, {}, { token: accessToken });
    expect(asDistributor.body.data).toEqual({ shareClasses: [{ id: sc, onboarding: null }] });
    expect(asDistributor.body.errors?.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(['FORBIDDEN']);
    const preview = await gw.graphql(`query($id: ID!) { dealingPreview(shareClassId: $id) { timeZone } }`, { id: sc }, { token: accessToken });
    expect(preview.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  describe('dealingPreview', () => {
    const PREVIEW = `configured timeZone cutOffTime settlementLagDays holidays currencies subscriptions { dealingDate cutOffAt expectedSettlementDate } redemptions { dealingDate cutOffAt expectedSettlementDate }`;

    it('gives the dates placement gives (the worked example of docs/api.md), each next one for an order at the previous cut-off', async () => {
      const sc = await aShareClass({
        subRedemption: { subFreq: 1, redFreq: 1, cutOffTime_days: 0, lockup: 0, eligibleInvestors: 'PROF', distributionPolicy: 'Accumulating' },
      });
      await asOps(
        gw,
        `mutation($sc: ID!) { setDealingCalendar(shareClassId: $sc, input: {timeZone: "America/New_York", cutOffTime: "16:00", settlementLagDays: 1, holidays: ["2026-11-26"], settlementCurrencies: ["USDC"]}) { timeZone } }`,
        { sc },
      );
      const at = Date.parse('2026-11-25T20:30:00Z');
      const { dealingPreview } = await asOps(
        gw,
        `query($sc: ID!, $from: EpochMs) { dealingPreview(shareClassId: $sc, from: $from, count: 3) { ${PREVIEW} } }`,
        { sc, from: at },
      );
      expect(dealingPreview).toMatchObject({
        configured: true,
        timeZone: 'America/New_York',
        cutOffTime: '16:00',
        settlementLagDays: 1,
        holidays: ['2026-11-26'],
        currencies: ['EUR', 'USDC'],
      });
      expect(dealingPreview.subscriptions).toEqual([
        { dealingDate: '2026-11-25', cutOffAt: Date.parse('2026-11-25T21:00:00Z'), expectedSettlementDate: '2026-11-27' },
        { dealingDate: '2026-11-27', cutOffAt: Date.parse('2026-11-27T21:00:00Z'), expectedSettlementDate: '2026-11-30' },
        { dealingDate: '2026-11-30', cutOffAt: Date.parse('2026-11-30T21:00:00Z'), expectedSettlementDate: '2026-12-01' },
      ]);
      expect(dealingPreview.redemptions).toEqual(dealingPreview.subscriptions);

      // an order placed then gets exactly the first preview's dates
      const { createDistributor } = await asOps(gw, `mutation { createDistributor(input: {name: "D"}) { id } }`);
      await asOps(gw, `mutation($d: ID!) { addDistributorHost(input: {distributorId: $d, hostname: "${HOST}"}) { hostname } }`, { d: createDistributor.id });
      await asOps(
        gw,
        `mutation($d: ID!, $sc: ID!) { grantShareClass(input: {distributorId: $d, shareClassId: $sc, deliveryMode: passthrough}) { shareClassId } }`,
        { d: createDistributor.id, sc },
      );
      const reg = await gw.api('POST', '/investor/register', {
        host: HOST,
        body: { distributorId: createDistributor.id, externalInvestorId: 'x', email: 'x@example.com' },
      });
      gw.clock.set(new Date(at));
      const order = await gw.api('POST', '/orders/subscribe', {
        host: HOST,
        body: { distributorId: createDistributor.id, investorId: reg.body.data.investorId, shareClassId: sc, amount: 10 },
      });
      expect(order.status).toBe(200);
      expect({
        dealingDate: order.body.data.dealingDate,
        cutOffAt: order.body.data.cutOffAt,
        expectedSettlementDate: order.body.data.expectedSettlementDate,
      }).toEqual(dealingPreview.subscriptions[0]);
    });

    it('previews a draft calendar without storing it, with the checks and messages of setDealingCalendar', async () => {
      const sc = await aShareClass({
        subRedemption: { subFreq: 1, redFreq: 1, cutOffTime_days: 0, lockup: 0, eligibleInvestors: 'PROF', distributionPolicy: 'Accumulating' },
      });
      const from = Date.parse('2026-12-24T09:00:00Z');
      const { dealingPreview } = await asOps(
        gw,
        `query($sc: ID!, $from: EpochMs, $d: DealingCalendarInput) { dealingPreview(shareClassId: $sc, from: $from, count: 2, draft: $d) { ${PREVIEW} } }`,
        {
          sc,
          from,
          d: { timeZone: 'Europe/Luxembourg', cutOffTime: '11:00', settlementLagDays: 2, holidays: ['2026-12-25'] },
        },
      );
      expect(dealingPreview.configured).toBe(false);
      expect(dealingPreview.subscriptions).toEqual([
        { dealingDate: '2026-12-24', cutOffAt: Date.parse('2026-12-24T10:00:00Z'), expectedSettlementDate: '2026-12-29' },
        { dealingDate: '2026-12-28', cutOffAt: Date.parse('2026-12-28T10:00:00Z'), expectedSettlementDate: '2026-12-30' },
      ]);
      // nothing stored
      const { shareClass } = await asOps(gw, `query($sc: ID!) { shareClass(id: $sc) { dealingCalendar { timeZone } } }`, { sc });
      expect(shareClass.dealingCalendar).toBeNull();
      // without a draft or a calendar: the defaults
      const plain = await asOps(gw, `query($sc: ID!, $from: EpochMs) { dealingPreview(shareClassId: $sc, from: $from, count: 1) { ${PREVIEW} } }`, {
        sc,
        from,
      });
      expect(plain.dealingPreview).toMatchObject({ timeZone: 'UTC', cutOffTime: '24:00', settlementLagDays: 1, currencies: ['EUR'] });
      expect(plain.dealingPreview.subscriptions).toEqual([
        { dealingDate: '2026-12-24', cutOffAt: Date.parse('2026-12-25T00:00:00Z'), expectedSettlementDate: '2026-12-25' },
      ]);

      for (const [draft, message] of [
        [{ timeZone: 'Mars/Olympus' }, 'timeZone must be an IANA time zone such as Europe/Luxembourg'],
        [{ cutOffTime: '25:00' }, 'cutOffTime must be HH:MM from 00:00 to 24:00'],
        [{ settlementLagDays: 31 }, 'settlementLagDays must be an integer from 0 to 30'],
        [{ holidays: ['2026-02-30'] }, 'holidays must be a date YYYY-MM-DD'],
        [{ settlementCurrencies: ['usdc'] }, 'settlementCurrencies must be upper-case currency codes such as USDC'],
      ] as const) {
        const q = `($sc: ID!, $d: DealingCalendarInput!) { X(shareClassId: $sc, D: $d) { timeZone } }`;
        expect(await opsError(gw, `query${q.replace('X', 'dealingPreview').replace('D:', 'draft:')}`, { sc, d: draft })).toEqual({
          message,
          code: 'BAD_USER_INPUT',
        });
        expect(await opsError(gw, `mutation${q.replace('X', 'setDealingCalendar').replace('D:', 'input:')}`, { sc, d: draft })).toEqual({
          message,
          code: 'BAD_USER_INPUT',
        });
      }
      expect(await opsError(gw, `query($sc: ID!) { dealingPreview(shareClassId: $sc, count: 51) { timeZone } }`, { sc })).toEqual({
        message: 'count must be an integer from 1 to 50',
        code: 'BAD_USER_INPUT',
      });
      expect(await opsError(gw, `query { dealingPreview(shareClassId: "SC999999") { timeZone } }`)).toEqual({
        message: 'shareClassId not found',
        code: 'NOT_FOUND',
      });
    });
  });
});
