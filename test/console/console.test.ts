import type { Browser, Page } from 'playwright-core';
import { DomainEvent } from '../../src/events/event.entity';
import { seedDemo } from '../../src/boot/seed';
import { launchBrowser, newPage, screenshot, seriousA11yViolations } from '../support/browser';
import { consolePage } from '../support/console-page';
import { httpRequest } from '../support/http';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aDealingDateNav, aOneStepOrder, aTransferHash } from '../support/one-step.factories';
import { makeCertificates, WebhookReceiver, type TestCertificates } from '../support/webhook-receiver';

/*
 * The ops console in a real headless Chromium against a gateway on a real database, with the
 * event relay and webhook delivery running. One journey, as operations would run it: the tests
 * share the world set up in beforeAll and follow each other (sign in, watch the blotter, act on
 * an order, publish a NAV, issue a credential), each asserting what the page shows and what the
 * gateway recorded. Every screen is checked with axe-core.
 */
describe('Ops console (browser)', () => {
  let gw: TestGateway;
  let certs: TestCertificates;
  let receiver: WebhookReceiver;
  let browser: Browser;
  let page: Page;
  let token: string;
  const seeded: { settled: string; pending: string; twoStep: string } = { settled: '', pending: '', twoStep: '' };
  let twoStepDealingDate = '';
  let twoStepDates = { cutOffAt: 0, expectedSettlementDate: '' };
  let placed = '';
  let DT = '';
  let IN = '';
  let SC = '';

  const url = (hash = '') => `http://127.0.0.1:${gw.port}/console/${hash}`;
  const expectAccessible = async (screen: string) => {
    const violations = await seriousA11yViolations(page);
    expect({ screen, violations }).toEqual({ screen, violations: [] });
  };

  beforeAll(async () => {
    certs = await makeCertificates();
    receiver = await WebhookReceiver.start(certs);
    gw = await startTestGateway({ background: true, events: { webhookAllowedHosts: ['127.0.0.1'], webhookCaFile: certs.caFile, pollMs: 50 } });
    await gw.reset();
    // Ids come from sequences that outlive a truncation: read them from the seed.
    const demo = await seedDemo(gw.em(), new Date());
    DT = demo.distributorId;
    IN = demo.investorId;
    SC = demo.shareClassIds[0];
    const em = gw.em();
    const { Distributor } = await import('../../src/modules/distributor/distributor.entity');
    const { Investor } = await import('../../src/modules/investor/investor.entity');
    const { ShareClass } = await import('../../src/modules/share-class/share-class.entity');
    const parties = {
      distributor: await em.findOneOrFail(Distributor, DT),
      investor: await em.findOneOrFail(Investor, IN),
      shareClass: await em.findOneOrFail(ShareClass, SC),
    };
    seeded.settled = (await aOneStepOrder(gw, parties, { amount: '5000', stage: 'settled' })).id;
    seeded.pending = (await aOneStepOrder(gw, parties, { amount: '1750', stage: 'pending' })).id;
    const twoStep = await gw.api('POST', '/orders/subscribe', {
      host: 'localhost',
      body: { distributorId: DT, investorId: IN, shareClassId: SC, amountSubscription: 1200, externalRef: 'crm-77' },
    });
    expect(twoStep.status).toBe(200);
    seeded.twoStep = twoStep.body.data.orderId;
    twoStepDealingDate = twoStep.body.data.dealingDate;
    twoStepDates = { cutOffAt: twoStep.body.data.cutOffAt, expectedSettlementDate: twoStep.body.data.expectedSettlementDate };
    for (const event_type of ['order.accepted', 'token.transfer_completed']) {
      const hook = await gw.api('POST', '/webhooks/register', { host: 'localhost', body: { event_type, endpoint_url: receiver.url('/hook') } });
      expect(hook.status).toBe(200);
    }
    token = await gw.opsToken();
    browser = await launchBrowser();
    page = await newPage(browser);
  });

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
    await receiver?.close();
    certs?.cleanup();
  });

  it('is served at /console with an SPA fallback and its assets from the gateway itself', async () => {
    const index = await httpRequest(gw.port, 'GET', '/console/orders/x');
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toMatch(/text\/html/);
    expect(index.headers['content-security-policy']).toContain("script-src 'self'");
    const assets = [...index.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThan(0);
    for (const a of assets) expect(a).toMatch(/^\/console\/assets\//);
    const missing = await httpRequest(gw.port, 'GET', '/console/assets/nope.js');
    expect(missing.status).toBe(404);
  });

  it('refuses a wrong token at sign-in, then signs in with an ops token and lists the seeded orders of both flows', async () => {
    await page.goto(url());
    await screenshot(page, 'sign-in');
    await expectAccessible('sign-in');
    await page.getByLabel('Ops token').fill('ops_not-a-real-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').locator('.message').textContent()).resolves.toBe('Invalid or expired token');
    await expect(page.getByLabel('Ops token').inputValue()).resolves.toBe('ops_not-a-real-token');

    await page.getByLabel('Ops token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Signed in as').waitFor();
    await expect(page.locator('.who strong').textContent()).resolves.toBe('test-ops');
    // The console opens on the book; the blotter is one section away.
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Blotter' }).click();
    for (const id of Object.values(seeded)) await page.locator(`tr[data-order-id="${id}"]`).waitFor();
    // Newest first.
    const ids = await page.locator('tbody tr[data-order-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-order-id')));
    expect(ids).toEqual([seeded.twoStep, seeded.pending, seeded.settled]);
    await expect(page.locator(`tr[data-order-id="${seeded.settled}"]`).getAttribute('data-status')).resolves.toBe('settled');
    await screenshot(page, 'blotter');
    await expectAccessible('blotter');
  });

  it('filters the blotter by flow and by dealing date, and finds an order by externalRef', async () => {
    await page.getByLabel('Flow').selectOption('two_step');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.locator(`tr[data-order-id="${seeded.settled}"]`).waitFor({ state: 'detached' });
    await expect(page.locator('tbody tr[data-order-id]').count()).resolves.toBe(1);
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByLabel('Order id or externalRef').fill('crm-77');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.locator(`tr[data-order-id="${seeded.pending}"]`).waitFor({ state: 'detached' });
    await expect(page.locator('tbody tr[data-order-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-order-id')))).resolves.toEqual([
      seeded.twoStep,
    ]);
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.locator(`tr[data-order-id="${seeded.settled}"]`).waitFor();
    // by dealing date: nothing is dealt on a day long past; the two-step order on its own day
    await page.getByLabel('Dealing date').fill('2001-01-02');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('No orders match.').waitFor();
    await page.getByLabel('Dealing date').fill(twoStepDealingDate);
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.locator(`tr[data-order-id="${seeded.twoStep}"]`).waitFor();
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.locator(`tr[data-order-id="${seeded.settled}"]`).waitFor();
  });

  it('shows an order placed over REST in the open blotter without a reload, highlighted', async () => {
    await page.evaluate(() => ((globalThis as unknown as { notReloaded: boolean }).notReloaded = true));
    const res = await gw.api('POST', '/orders/subscribe', { host: 'localhost', body: { distributorId: DT, investorId: IN, shareClassId: SC, amount: 2500 } });
    expect(res.status).toBe(200);
    placed = res.body.data.orderId;
    const row = page.locator(`tr[data-order-id="${placed}"]`);
    await row.waitFor();
    await expect(row.getAttribute('class')).resolves.toBe('fresh');
    await expect(row.getAttribute('data-status')).resolves.toBe('pending');
    await expect(page.evaluate(() => (globalThis as unknown as { notReloaded?: boolean }).notReloaded)).resolves.toBe(true);
    await expect(page.locator('tbody tr[data-order-id]').first().getAttribute('data-order-id')).resolves.toBe(placed);
  });

  it('accepts the order from its page: the status changes, the history records the token name, order.accepted is emitted and its delivery shows', async () => {
    await page.locator(`tr[data-order-id="${placed}"] a`).click();
    await page.getByRole('heading', { level: 1 }).filter({ hasText: placed }).waitFor();
    await page.getByRole('button', { name: 'Accept' }).click();
    const dialog = page.getByRole('dialog', { name: `Accept ${placed}?` });
    await dialog.getByLabel('Note (optional)').fill('checked by desk');
    await dialog.getByRole('button', { name: 'Accept' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.locator('.timeline li').filter({ hasText: 'accepted' }).waitFor();
    await expect(page.locator('.page-head .status').textContent()).resolves.toBe('accepted');

    const read = await gw.graphql(`query($id: ID!) { order(id: $id) { status statusHistory { status by note } } }`, { id: placed }, { token });
    expect(read.body.data.order.status).toBe('accepted');
    expect(read.body.data.order.statusHistory).toEqual([
      { status: 'pending', by: 'Network', note: null },
      { status: 'accepted', by: 'test-ops', note: 'checked by desk' },
    ]);
    const events = await gw.em().find(DomainEvent, { aggregateId: placed }, { orderBy: { position: 'asc' } });
    expect(events.map((e) => [e.payload.status, e.payload.webhookEvent, e.payload.by])).toEqual([
      ['pending', null, 'Network'],
      ['accepted', 'order.accepted', 'test-ops'],
    ]);
    const received = await receiver.waitFor((all) => all.some((r) => r.json && r.json.data.orderId === placed));
    const delivery = received.find((r) => r.json.data.orderId === placed)!;
    expect(delivery.json.event_type).toBe('order.accepted');
    // The page follows the delivery live: its attempt appears under the order's deliveries.
    await page.locator(`tr[data-event-id="${String(delivery.headers['webhook-id'])}"]`).waitFor();
    await page.locator('tr.attempt').filter({ hasText: 'delivered · HTTP 200' }).first().waitFor();
    await screenshot(page, 'order-detail', { fullPage: true });
    await expectAccessible('order detail');
  });

  it('shows the documented message when an action is refused, keeps what was typed, then settles once corrected', async () => {
    await page.getByRole('button', { name: 'Settle' }).click();
    const dialog = page.getByRole('dialog', { name: `Settle ${placed}?` });
    await dialog.getByLabel('Transfer hash').fill('0x1234');
    await dialog.getByRole('button', { name: 'Settle' }).click();
    await expect(dialog.getByRole('alert').locator('.message').textContent()).resolves.toBe('Transfer hash must be a 0x-prefixed 32-byte hex string');
    await expect(dialog.getByLabel('Transfer hash').inputValue()).resolves.toBe('0x1234');
    await screenshot(page, 'refused-action');
    await expectAccessible('refused action dialog');
    await expect(gw.graphql(`query($id: ID!) { order(id: $id) { status } }`, { id: placed }, { token }).then((r) => r.body.data.order.status)).resolves.toBe(
      'accepted',
    );

    // The order settles at its dealing date's NAV, with a transfer of its own (docs/custody.md).
    const dealingNav = await aDealingDateNav(gw, { id: placed });
    await dialog.getByLabel('Transfer hash').fill(aTransferHash());
    await dialog.getByRole('button', { name: 'Settle' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.locator('.timeline li').filter({ hasText: 'settled' }).waitFor();
    await receiver.waitFor((all) => all.some((r) => r.json?.event_type === 'token.transfer_completed' && r.json.data.orderId === placed));
    // That NAV may be dated tomorrow (the dealing date): gone again, the share class's chart is as the next test expects.
    await gw.em().getConnection().execute('delete from nav where id = ?', [dealingNav.id]);
  });

  it('shows a two-step order with its history and offers no ops action before the supply side answers', async () => {
    await page.goto(url(`#/orders/${seeded.twoStep}`));
    await page.getByRole('heading', { level: 1 }).filter({ hasText: seeded.twoStep }).waitFor();
    await page.getByText('No ops action').waitFor();
    await expect(page.locator('.timeline li').count()).resolves.toBe(1);
    await page.getByText('Not pushed to a supply-side platform.').waitFor();
  });

  it("an order's page shows its dealing date, cut-off and expected settlement", async () => {
    await page.goto(url(`#/orders/${seeded.twoStep}`));
    await page.getByRole('heading', { level: 1 }).filter({ hasText: seeded.twoStep }).waitFor();
    const fact = (name: string) =>
      page
        .locator('dl.facts > div')
        .filter({ has: page.locator('dt', { hasText: new RegExp(`^${name}$`) }) })
        .locator('dd');
    expect(twoStepDealingDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await expect(fact('Dealing date').textContent()).resolves.toBe(twoStepDealingDate);
    await expect(fact('Expected settlement').textContent()).resolves.toBe(twoStepDates.expectedSettlementDate);
    await expect(fact('Cut-off').locator('time').getAttribute('datetime')).resolves.toBe(new Date(twoStepDates.cutOffAt).toISOString());
  });

  it('publishing a NAV from the share class page updates the chart', async () => {
    await page.goto(url('#/share-classes'));
    await page.getByRole('table', { name: 'Share classes' }).waitFor();
    await screenshot(page, 'share-classes');
    await expectAccessible('share classes');
    await page.getByRole('link', { name: SC }).click();
    const chart = page.locator('.chart [data-points]');
    await chart.waitFor();
    const before = Number(await chart.getAttribute('data-points'));
    expect(before).toBeGreaterThan(100);
    await page.getByLabel('Close (USD)').fill('1.0432');
    await page.getByRole('button', { name: 'Publish NAV' }).click();
    await page.getByText('NAV 1.0432 USD published.').waitFor();
    await page.locator(`.chart [data-points="${before + 1}"][data-last-close="1.0432"]`).waitFor();
    const live = await gw.graphql(`query($sc: String!) { liveNav(shareClassId: $sc) { close createdBy } }`, { sc: SC }, { token });
    expect(live.body.data.liveNav).toEqual({ close: '1.0432', createdBy: 'test-ops' });
    await screenshot(page, 'share-class', { fullPage: true });
    await expectAccessible('share class');
  });

  it("a NAV outside the class's tolerance is confirmed by its publisher, waits, and shows in Approvals with its move in percent", async () => {
    const { shareClass } = (await gw.graphql(`query($id: ID!) { shareClass(id: $id) { navToleranceBps dealingCalendar { timeZone } } }`, { id: SC }, { token }))
      .body.data;
    const zone: string = shareClass.dealingCalendar?.timeZone ?? 'UTC';
    // The valuation date and time are read in the class's zone, which their labels name.
    await page.getByLabel(`Valuation date (${zone})`).waitFor();
    await page.getByLabel(`Time struck (${zone})`).waitFor();
    await page.getByLabel('Close (USD)').fill('0.10432');
    await page.getByText(`-90.00% against the last confirmed 1.0432 (tolerance ${shareClass.navToleranceBps / 100}%)`).waitFor();
    const confirm = page.getByLabel('Outside the tolerance: send it to a second principal');
    await page.getByRole('button', { name: 'Publish NAV' }).click();
    await expect(page.getByRole('alert').locator('.message').textContent()).resolves.toBe(
      `The NAV moves -90.00% against the last confirmed 1.0432, outside the tolerance of ${shareClass.navToleranceBps / 100}%: confirm it to send it to a second principal`,
    );
    await confirm.check();
    await page.getByRole('button', { name: 'Publish NAV' }).click();
    await page.getByText(/^NAV 0\.10432 USD awaits a second principal \(approval request \d+\): it is not live until confirmed in Approvals\.$/).waitFor();
    await expectAccessible('share class, NAV pending');
    const live = await gw.graphql(`query($sc: String!) { liveNav(shareClassId: $sc) { close } }`, { sc: SC }, { token });
    expect(live.body.data.liveNav).toEqual({ close: '1.0432' });

    await page.goto(url('#/approvals'));
    await consolePage(page)
      .panel('Awaiting a decision')
      .getByRole('row')
      .filter({ hasText: `NAV 0.10432 USD of ${SC}` })
      .filter({ hasText: `-90% against 1.0432 (tolerance ${shareClass.navToleranceBps / 100}%)` })
      .waitFor();
    await expectAccessible('approvals with a pending NAV');
  });

  it('positions: the current register of the class valued at the live NAV, its CSV, and the investor page under its name', async () => {
    const { positions } = (
      await gw.graphql(
        `query($sc: ID!) { positions(shareClassId: $sc) { currency navClose totalTokens totalValue holders { investorId investorName distributorId distributorName tokens value sharePercent locked } } }`,
        { sc: SC },
        { token },
      )
    ).body.data;
    // The pending NAV of the case before values nothing: the live one does.
    expect(positions.navClose).toBe('1.0432');
    const { Holding } = await import('../../src/modules/holding/holding.entity');
    const held = await gw.em().findOneOrFail(Holding, { investor: IN, shareClass: SC });
    const mine = positions.holders.find((h: { investorId: string }) => h.investorId === IN);
    expect(Number(mine.tokens)).toBe(Number(held.balance));
    expect(Number(mine.value)).toBeCloseTo(Number(held.balance) * 1.0432, 8);
    expect(mine.distributorId).toBe(DT);
    const sum = positions.holders.reduce((s: number, h: { tokens: string }) => s + Number(h.tokens), 0);
    expect(sum).toBeCloseTo(Number(positions.totalTokens), 8);
    expect(Number(mine.sharePercent)).toBeCloseTo((Number(mine.tokens) / Number(positions.totalTokens)) * 100, 3);

    await page.goto(url(`#/share-classes/${SC}`));
    const table = page.getByRole('table', { name: 'Positions', exact: true });
    await table.waitFor();
    await expect(table.locator('tbody tr').count()).resolves.toBe(positions.holders.length);
    const row = table.locator('tbody tr').filter({ hasText: IN });
    await row.getByRole('link', { name: mine.investorName }).waitFor();
    await row.getByRole('link', { name: mine.distributorName }).waitFor();
    await expectAccessible('share class with positions');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).first().click()]);
    expect(download.suggestedFilename()).toBe(`positions-${SC}.csv`);

    const csv = await httpRequest(gw.port, 'GET', `/ops/positions.csv?shareClassId=${SC}`, { headers: { authorization: `Bearer ${token}` } });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('shareClassId,at,navClose,currency,investorId,investorName,distributorId,distributorName,tokens,value,sharePercent,locked');
    expect(lines).toHaveLength(positions.holders.length + 1);
    const line = lines.find((l) => l.includes(`,${IN},`))!.split(',');
    expect([line[0], ...line.slice(2)]).toEqual([
      SC,
      '1.0432',
      positions.currency,
      IN,
      mine.investorName,
      DT,
      mine.distributorName,
      mine.tokens,
      mine.value,
      mine.sharePercent,
      mine.locked,
    ]);
    expect((await httpRequest(gw.port, 'GET', `/ops/positions.csv?shareClassId=${SC}`)).status).toBe(401);

    await page.goto(url(`#/investors/${IN}`));
    await page.getByRole('heading', { level: 1 }).filter({ hasText: mine.investorName }).waitFor();
    await page.getByRole('table', { name: 'Positions', exact: true }).locator('tbody tr').filter({ hasText: SC }).waitFor();
    await page.getByRole('table', { name: 'Orders', exact: true }).getByRole('link', { name: seeded.settled }).waitFor();
    await page.getByRole('table', { name: 'Income', exact: true }).waitFor();
    await page.getByRole('table', { name: 'Wallets', exact: true }).waitFor();
    await expectAccessible('investor with positions and orders');
  });

  it("a NAV correction shows the gateway's compensation preview before it is requested, then waits in Approvals", async () => {
    // The NAV the settled one-step order was priced at, corrected 10% down: above any tolerance.
    const { order } = (await gw.graphql(`query($id: ID!) { order(id: $id) { navPublishedAt } }`, { id: seeded.settled }, { token })).body.data;
    const history = (
      await gw.graphql(
        `query($sc: String!, $from: EpochMs!, $to: EpochMs!) { navHistory(shareClassId: $sc, startDate: $from, endDate: $to) { id close publishedAt } }`,
        { sc: SC, from: order.navPublishedAt - 1000, to: order.navPublishedAt + 1000 },
        { token },
      )
    ).body.data.navHistory;
    const nav = history.find((n: { publishedAt: number }) => n.publishedAt === order.navPublishedAt);
    const corrected = (Number(nav.close) * 0.9).toFixed(6);
    const { navCorrectionPreview: api } = (
      await gw.graphql(
        `query($id: ID!, $close: Decimal!) { navCorrectionPreview(navId: $id, close: $close) { aboveTolerance compensations { orderId action tokensMoved tokensDue } } }`,
        { id: nav.id, close: corrected },
        { token },
      )
    ).body.data;
    expect(api.aboveTolerance).toBe(true);
    const due = api.compensations.find((c: { orderId: string }) => c.orderId === seeded.settled);
    // Above the tolerance something is booked: a mint where the chain takes it, else cash (this gateway has no chain).
    expect(['mint', 'cash']).toContain(due.action);

    await page.goto(url(`#/share-classes/${SC}`));
    const panel = consolePage(page).panel('Correct a NAV');
    await panel.getByLabel('NAV', { exact: true }).selectOption(nav.id);
    await panel.getByLabel(/^Corrected close/).fill(corrected);
    await expect(panel.getByRole('button', { name: 'Request the correction' }).count()).resolves.toBe(0);
    await panel.getByRole('button', { name: 'Preview the correction' }).click();
    const preview = panel.getByRole('region', { name: 'Correction preview' });
    await preview.waitFor();
    await preview.getByText('Above the tolerance: approving books each difference below (mint, burn or cash).').waitFor();
    const compensations = preview.getByRole('table', { name: 'Compensation of settled orders' });
    await expect(compensations.locator('tbody tr').count()).resolves.toBe(api.compensations.length);
    const row = compensations.locator('tbody tr').filter({ hasText: seeded.settled });
    await expect(row.locator('td').last().textContent()).resolves.toMatch(new RegExp(`^${due.action} [\\d,.]+ (tokens|USD)$`));
    await expectAccessible('NAV correction preview');

    await panel.getByLabel(/^Reason/).fill('administrator price file corrected');
    await panel.getByRole('button', { name: 'Request the correction' }).click();
    await panel
      .getByRole('status')
      .filter({ hasText: /requested \(approval request \d+\): a second principal decides it in Approvals\./ })
      .waitFor();
    const pending = (await gw.graphql(`{ approvalRequests(status: requested) { kind arguments reason requestedBy } }`, {}, { token })).body.data
      .approvalRequests;
    expect(pending).toContainEqual({
      kind: 'nav_correction',
      arguments: expect.objectContaining({ navId: nav.id, close: corrected }),
      reason: 'administrator price file corrected',
      requestedBy: 'ops:test-ops',
    });
    await page.goto(url('#/approvals'));
    await consolePage(page)
      .panel('Awaiting a decision')
      .getByRole('row')
      .filter({ hasText: `NAV ${nav.id} corrected to ${corrected}` })
      .waitFor();
  });

  it('issues an API credential whose secret is shown once and works on surface O', async () => {
    await page.goto(url('#/distributors'));
    await page.getByRole('table', { name: 'Distributors' }).waitFor();
    await screenshot(page, 'distributors');
    await expectAccessible('distributors');
    await page.getByRole('link', { name: DT }).click();
    await page.getByRole('button', { name: 'Issue credential' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Issue' }).click();
    const shown = page.getByRole('region', { name: 'New credential' });
    await shown.waitFor();
    const [apiKey, apiSecret] = await shown.locator('dd code').allTextContents();
    const pair = await gw.api('POST', '/auth/token', { headers: { 'x-api-key': apiKey, 'x-api-secret': apiSecret } });
    expect(pair.status).toBe(200);
    expect(pair.body.data.tokenType).toBe('Bearer');
    await page.locator('tr', { hasText: apiKey }).waitFor();
    await shown.scrollIntoViewIfNeeded();
    await screenshot(page, 'distributor');
    await expectAccessible('distributor');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await shown.waitFor({ state: 'detached' });
    await page.reload();
    await page.locator('tr', { hasText: apiKey }).waitFor();
    await expect(page.content()).resolves.not.toContain(apiSecret);
  });

  it('finds an investor by e-mail and removes a wallet with a reason', async () => {
    await page.goto(url('#/investors'));
    await page.getByRole('table', { name: 'Investors' }).waitFor();
    const email = await gw.graphql(`query($id: ID!) { investor(id: $id) { email } }`, { id: IN }, { token }).then((r) => r.body.data.investor.email as string);
    await page.getByLabel('E-mail or external id').fill(email.toUpperCase());
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: IN }).waitFor();
    await screenshot(page, 'investors');
    await expectAccessible('investors');
    await page.getByRole('link', { name: IN }).click();
    await page.getByRole('table', { name: 'Wallets' }).waitFor();
    await screenshot(page, 'investor');
    await expectAccessible('investor');
    await page.getByRole('table', { name: 'Wallets' }).getByRole('button', { name: 'Remove' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Reason').fill('compromised');
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('table', { name: 'Wallets' }).locator('td', { hasText: 'compromised' }).waitFor();
    const wallets = await gw.graphql(`query($id: ID!) { investor(id: $id) { wallets { status removalReason } } }`, { id: IN }, { token });
    expect(wallets.body.data.investor.wallets).toEqual([{ status: 'removed', removalReason: 'compromised' }]);
  });

  it('lists webhooks with their deliveries and redelivers an event', async () => {
    await page.goto(url('#/webhooks'));
    await page.getByRole('table', { name: 'Webhook registrations' }).waitFor();
    const deliveries = page.getByRole('table', { name: 'Webhook deliveries' });
    await deliveries.waitFor();
    await expect(deliveries.locator('tr[data-event-id]').count()).resolves.toBe(2);
    await screenshot(page, 'webhooks');
    await expectAccessible('webhooks');
    const before = receiver.received.length;
    await deliveries.getByRole('button', { name: 'Redeliver' }).first().click();
    await page.getByRole('dialog').getByRole('button', { name: 'Redeliver' }).click();
    await receiver.waitFor((all) => all.length > before);
  });

  it('signs in directly from the link a development start prints, and the token leaves the address bar', async () => {
    const fresh = await newPage(browser);
    await fresh.goto(url(`#token=${token}`));
    await fresh.getByText('Signed in as').waitFor();
    expect(fresh.url()).toBe(url('#/'));
    await fresh.context().close();
  });

  it('outside development a #token= link signs nobody in, and the token leaves the address bar', async () => {
    const { createGateway } = await import('../../src/app');
    const production = await createGateway({
      config: {
        env: 'production',
        bodyLimit: '100kb',
        jwt: { signingKey: 'p'.repeat(40), issuer: 'fund-distribution-gateway', refreshTokenTtlSeconds: 3600 },
        metricsToken: 'metrics-token-0123456789',
      },
      orm: gw.db.orm,
      clock: gw.clock,
      background: false,
    });
    const port = await production.listen(0, '127.0.0.1');
    const fresh = await newPage(browser);
    try {
      await fresh.goto(`http://127.0.0.1:${port}/console/#token=${token}`);
      await fresh.getByLabel('Ops token').waitFor();
      expect(fresh.url()).not.toContain(token);
      await expect(fresh.getByText('Signed in as').count()).resolves.toBe(0);
    } finally {
      await fresh.context().close();
      await production.close();
    }
  });
});
