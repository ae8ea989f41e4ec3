import type { Browser, Page } from 'playwright-core';
import { aDistributor, aGrant, anInvestor, aNav, aShareClass } from '../support/factories';
import { newPage, screenshot } from '../support/browser';
import { consolePage, consoleUrl, signedInConsole } from '../support/console-page';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aOneStepOrder } from '../support/one-step.factories';
import { asOps } from '../support/ops.factories';

/*
 * Today, the desk's home screen, in headless Chromium: where a sign-in lands, what it lists
 * (the figures `today` answers, test/graphql/today.test.ts), each item a link to the screen that
 * acts on it, kept live, and the menu on one line at 1,280 px.
 */
describe('Ops console: today (browser)', () => {
  let gw: TestGateway;
  let browser: Browser;
  let page: Page;
  let ui: ReturnType<typeof consolePage>;
  let pendingId: string;
  let shareClassId: string;
  let investorId: string;
  const rows = (table: string) =>
    page
      .getByRole('table', { name: table, exact: true })
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));

  beforeAll(async () => {
    gw = await startTestGateway({ background: true, events: { pollMs: 50 } });
    await gw.reset();
    const em = gw.em();
    gw.clock.set(new Date(Date.UTC(2030, 4, 6, 10)));
    const shareClass = await aShareClass(em, { currency: 'EUR', meta: { name: 'Today Class', manager: 'M' } });
    shareClassId = shareClass.id;
    const distributor = await aDistributor(em, [], { name: 'Today Distributor' });
    await aGrant(em, distributor, shareClass);
    const investor = await anInvestor(em, distributor, { grants: [shareClass] });
    investorId = investor.id;
    await aNav(em, shareClass, '10', new Date(Date.UTC(2030, 4, 5, 12)));
    await aOneStepOrder(gw, { distributor, investor, shareClass }, { amount: '1000', stage: 'accepted' });
    gw.clock.set(new Date(Date.UTC(2030, 4, 8, 9)));
    pendingId = (await aOneStepOrder(gw, { distributor, investor, shareClass }, { amount: '2500' })).id;
    ({ browser, page, ui } = await signedInConsole(gw));
  });

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  it('is where the sign-in link lands: every list with its figures and links, the menu on one line, no accessibility violation', async () => {
    await ui.heading('Today');
    await expect(page.getByRole('link', { name: 'Today', exact: true }).getAttribute('aria-current')).resolves.toBe('page');
    await expect(rows('Orders to accept')).resolves.toEqual([[pendingId, 'Today Class', 'subscription', '2,500 EUR', '2030-05-08', expect.any(String)]]);
    await expect(rows('NAVs due')).resolves.toEqual([
      ['Today Class', '2030-05-06 (UTC)', '1', 'none'],
      ['Today Class', '2030-05-08 (UTC)', '1', 'none'],
    ]);
    await expect(rows('Settlements due')).resolves.toEqual([['Today Class', '2030-05-06', '2030-05-07', '1', 'not published yet']]);
    await expect(rows('Approvals waiting')).resolves.toEqual([['No request waits for a decision.']]);
    await expect(rows('Assets under management now')).resolves.toEqual([['Today Class', '0', expect.stringMatching(/^10 \(/), '0 EUR', '—']]);
    // the menu stays one line at 1,280 px
    const heights = await page.locator('header.top nav li').evaluateAll((lis) => [...new Set(lis.map((li) => li.getBoundingClientRect().top))]);
    expect(heights).toHaveLength(1);
    await screenshot(page, 'today', { fullPage: true });
    await ui.expectAccessible('today');
  });

  it('keeps itself true: a request made elsewhere and a NAV published show without a reload', async () => {
    await asOps(gw, `mutation($i: HoldingAdjustmentInput!) { requestHoldingAdjustment(input: $i) { id } }`, {
      i: { investorId, shareClassId, quantity: '5', reason: 'transfer in from the previous register' },
    });
    await page.getByRole('table', { name: 'Approvals waiting', exact: true }).getByRole('link', { name: 'Holding adjustment' }).waitFor();
    await asOps(gw, `mutation($i: PublishNavInput!) { publishNav(input: $i) { entryId } }`, {
      i: { shareClassId, close: '10.01', publishedAt: Date.UTC(2030, 4, 6, 16) },
    });
    await page.getByRole('table', { name: 'Settlements due', exact: true }).getByText('published: ready to settle').waitFor();
    await expect(rows('NAVs due')).resolves.toEqual([['Today Class', '2030-05-08 (UTC)', '1', 'none']]);
  });

  it('each item opens the screen that acts on it', async () => {
    await page.getByRole('table', { name: 'Orders to accept', exact: true }).getByRole('link', { name: pendingId }).click();
    await ui.heading(pendingId);
    await page.getByRole('button', { name: 'Accept', exact: true }).waitFor();
    await page.goBack();
    await page.getByRole('table', { name: 'Settlements due', exact: true }).getByRole('link', { name: 'Today Class' }).click();
    await ui.heading('Today Class');
    await page.goto(consoleUrl(gw, '#/today'));
    await page.getByRole('table', { name: 'Approvals waiting', exact: true }).getByRole('link', { name: 'Holding adjustment' }).click();
    await ui.heading('Approvals');
  });

  it('an approver alone lands on Approvals instead', async () => {
    const approver = await newPage(browser);
    await approver.goto(consoleUrl(gw, `#token=${await gw.opsTokenAs('today-approver', ['approver'])}`));
    await consolePage(approver).heading('Approvals');
    await approver.context().close();
  });
});
