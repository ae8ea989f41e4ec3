import type { Browser, Page } from 'playwright-core';
import { InvestorCategory } from '../../src/modules/investor/investor-category';
import { approverToken } from '../support/approval.factories';
import { newPage, screenshot } from '../support/browser';
import { consolePage, consoleUrl, signedInConsole } from '../support/console-page';
import { aRuleSet } from '../support/eligibility.factories';
import { aDistributor, aGrant, aHolding, anInvestor, aNav, aShareClass } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aOneStepOrder } from '../support/one-step.factories';
import { asOps } from '../support/ops.factories';

/*
 * Who may hold a share class, in the console (issue 46.5), in headless Chromium: the eligibility
 * editor with real choices (ISO countries, the categories, the limits), the holders a change
 * leaves ineligible shown before it is asked, its four eyes in Approvals; the investor's category
 * and KYC panel; the share-class form's closed choices; and an order's eligibility refusal in words.
 */
describe('Ops console: eligibility (browser)', () => {
  let gw: TestGateway;
  let browser: Browser;
  let page: Page;
  let ui: ReturnType<typeof consolePage>;
  let shareClassId: string;
  let usHolder: string;
  let luHolder: string;
  let failedOrderId: string;
  const DAY = 86_400_000;
  const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

  beforeAll(async () => {
    gw = await startTestGateway();
    await gw.reset();
    const em = gw.em();
    // given a class naming rule set PROF (North Korea blocked), a holder from the US and a professional from Luxembourg
    const shareClass = await aShareClass(em, { currency: 'EUR', meta: { name: 'Eligible Class', manager: 'M' } });
    shareClassId = shareClass.id;
    await aRuleSet(em, 'PROF', { blockedCountries: ['KP'] });
    await aRuleSet(em, 'QP-US', { allowedCountries: ['US'], allowedCategories: ['qualified_purchaser'] });
    const distributor = await aDistributor(em, [], { name: 'Eligible Distributor' });
    await aGrant(em, distributor, shareClass);
    const us = await anInvestor(em, distributor, { grants: [shareClass], over: { name: 'Bob Smith', countryCode: 'US' } });
    const lu = await anInvestor(em, distributor, {
      grants: [shareClass],
      over: { name: 'Ada Lovelace', countryCode: 'LU', category: InvestorCategory.professional },
    });
    usHolder = us.id;
    luHolder = lu.id;
    await aHolding(em, us, shareClass, '100');
    await aHolding(em, lu, shareClass, '50');
    await aNav(em, shareClass, '10', new Date(Date.now() - DAY));
    // and a subscription of the US holder whose row a dealing date failed: the investor became ineligible since acceptance
    failedOrderId = (await aOneStepOrder(gw, { distributor, investor: us, shareClass }, { amount: '1000', stage: 'accepted' })).id;
    await em
      .getConnection()
      .execute(`update "order" set status = 'failed', failure_reason = ? where id = ?`, [
        `investor ${us.id} is not eligible for ${shareClass.id}: country US is blocked by rule set PROF`,
        failedOrderId,
      ]);
    ({ browser, page, ui } = await signedInConsole(gw));
  });

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  it('lists every rule set in words, each a link to its editor', async () => {
    await page.goto(consoleUrl(gw, '#/eligibility'));
    await ui.heading('Eligibility rule sets');
    const rows = await page
      .getByRole('table', { name: 'Rule sets', exact: true })
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 7).map((td) => td.textContent ?? '')));
    expect(rows).toEqual([
      ['PROF', 'any not blocked', 'KP', 'any', 'no limit', 'no limit', 'no cap'],
      ['QP-US', 'US', 'none', 'qualified purchaser', 'no limit', 'no limit', 'no cap'],
    ]);
    await screenshot(page, 'eligibility-rule-sets');
    await ui.expectAccessible('eligibility rule sets');
  });

  it("opens from the share class's page; shows who a change leaves ineligible before it is asked; the request waits for another principal, who approves it in Approvals", async () => {
    await page.goto(consoleUrl(gw, `#/share-classes/${shareClassId}`));
    await ui.heading('Eligible Class');
    await page.getByRole('link', { name: 'PROF', exact: true }).click();
    await ui.heading('Eligibility rule set PROF');
    await ui.panel('Holders ineligible now').getByText('Every holder meets the rules in force.').waitFor();
    // when the US is blocked too, only professionals admitted, and 80 tokens at most per investor, chosen from lists
    await ui.set('Add to blocked countries', 'US');
    await page.getByRole('list', { name: 'Blocked countries' }).getByText('US · United States').waitFor();
    await ui.set('Investor categories', 'listed');
    await page.getByRole('checkbox', { name: 'professional', exact: true }).check();
    await ui.set('Holding per investor at most (tokens)', '80');
    await ui.set('Reason', 'prospectus of 2026-12: no US persons');
    await page.getByRole('button', { name: 'Show who it leaves ineligible' }).click();
    // then the US holder is listed with the rule, before anything is asked
    const preview = page.getByRole('region', { name: 'Holders the change leaves ineligible' });
    await expect(preview.getByRole('listitem').allTextContents()).resolves.toEqual([`${usHolder} (${shareClassId}): country US is blocked by rule set PROF`]);
    await screenshot(page, 'eligibility-editor', { fullPage: true });
    await ui.expectAccessible('eligibility editor');
    // when it is asked, it waits, with the holders it binds
    await preview.getByRole('button', { name: 'Request the change' }).click();
    const waiting = page.getByRole('table', { name: 'Changes waiting for approval', exact: true });
    await waiting.getByText(`${usHolder} (${shareClassId}): country US is blocked by rule set PROF`).waitFor();
    await ui.panel('Rules in force').getByText('KP', { exact: true }).waitFor();
    // and another principal approves it in Approvals: the rules are in force then
    const approver = await newPage(browser);
    await approver.goto(consoleUrl(gw, `#token=${await approverToken(gw)}`));
    await consolePage(approver).heading('Approvals');
    const row = consolePage(approver).panel('Awaiting a decision').getByRole('row').filter({ hasText: 'Eligibility rules' });
    await row.getByRole('button', { name: 'Approve' }).click();
    await approver.getByRole('dialog').getByRole('button', { name: 'Approve' }).click();
    await row.waitFor({ state: 'detached' });
    await approver.context().close();
    await page.reload();
    await ui.panel('Rules in force').getByText('KP, US', { exact: true }).waitFor();
    await expect(ui.panel('Holders ineligible now').getByRole('listitem').allTextContents()).resolves.toEqual([
      `${usHolder} (${shareClassId}): country US is blocked by rule set PROF`,
    ]);
  });

  it('shows a viewer the rules but no request', async () => {
    const viewer = await newPage(browser);
    await viewer.goto(consoleUrl(gw, `#token=${await gw.opsTokenAs('eligibility-viewer', ['viewer'])}`));
    await viewer.getByText('Signed in as').waitFor();
    await viewer.goto(consoleUrl(gw, '#/eligibility/PROF'));
    await consolePage(viewer).heading('Eligibility rule set PROF');
    await consolePage(viewer).panel('Rules in force').waitFor();
    await viewer.getByText("Changing a rule set is an operator's request, approved by another principal.").waitFor();
    await expect(viewer.getByRole('button', { name: 'Show who it leaves ineligible' }).count()).resolves.toBe(0);
    await viewer.context().close();
  });

  it("records an investor's KYC and changes its category: a downgrade at once, an upgrade four-eyes with its reason", async () => {
    await page.goto(consoleUrl(gw, `#/investors/${luHolder}`));
    await ui.heading('Ada Lovelace');
    const panel = ui.panel('Category and KYC');
    await panel.getByText('not verified').waitFor();
    // when KYC is verified today and expires in 10 days
    const expires = Date.parse(`${utcDay(Date.now() + 10 * DAY)}T00:00:00Z`);
    await ui.set('Verified on (UTC)', utcDay(Date.now()));
    await ui.set('Expires on (UTC)', utcDay(expires));
    await page.getByRole('button', { name: 'Record KYC' }).click();
    await panel.getByText(new RegExp(`^expires in (9|10) days, on ${utcDay(expires)} \\(UTC\\)$`)).waitFor();
    // when the category goes down to retail: said before, set at once
    await ui.set('New category', 'retail');
    await panel.getByText('No upgrade: it applies at once.').waitFor();
    await page.getByRole('button', { name: 'Set the category' }).click();
    await panel.getByText('Category set to retail.').waitFor();
    // when it goes up to eligible counterparty: four-eyes, its reason required
    await ui.set('New category', 'eligible_counterparty');
    await panel.getByText(/^An upgrade from retail/).waitFor();
    await page.getByRole('button', { name: 'Request the upgrade' }).click();
    await panel
      .getByText(/reason.*required|required.*reason/i)
      .first()
      .waitFor();
    await panel.getByRole('textbox', { name: 'Reason' }).fill('opt-up assessment of 2026-11-02');
    await page.getByRole('button', { name: 'Request the upgrade' }).click();
    await panel.getByText(/Upgrade to eligible counterparty requested by .*: waits in Approvals\./).waitFor();
    const { investor } = await asOps(gw, `query($id: ID!) { investor(id: $id) { category kycExpiresAt } }`, { id: luHolder });
    expect(investor).toEqual({ category: 'retail', kycExpiresAt: expires });
    await screenshot(page, 'investor-category-kyc');
    await ui.expectAccessible('investor category and KYC');
    // when the KYC has expired: said with its day and zone
    await ui.set('Verified on (UTC)', utcDay(Date.now() - 400 * DAY));
    await ui.set('Expires on (UTC)', utcDay(Date.now() - 35 * DAY));
    await page.getByRole('button', { name: 'Record KYC' }).click();
    await panel.getByText(`expired on ${utcDay(Date.parse(`${utcDay(Date.now() - 35 * DAY)}T00:00:00Z`))} (UTC)`, { exact: false }).waitFor();
  });

  it("offers the share-class form's status, currency and eligibility as closed lists", async () => {
    await page.goto(consoleUrl(gw, `#/share-classes/${shareClassId}/edit`));
    await ui.heading('Edit Eligible Class');
    const options = (label: string) =>
      ui
        .field(label)
        .locator('option')
        .evaluateAll((os) => os.map((o) => o.getAttribute('value') ?? ''));
    // (the codes arrive with the rule sets: the stored one is a choice meanwhile)
    await ui.field('Eligible investors').locator('option[value="QP-US"]').waitFor({ state: 'attached' });
    await expect(options('Eligible investors')).resolves.toEqual(['PROF', 'QP-US']);
    await expect(options('Status')).resolves.toEqual(['active', 'suspended', 'closed']);
    await expect(options('Currency')).resolves.toContain('EUR');
    await expect(options('Currency')).resolves.not.toContain('EURO');
  });

  it('says in words why an order failed for eligibility, with the rule set to look at', async () => {
    await page.goto(consoleUrl(gw, `#/orders/${failedOrderId}`));
    await ui.heading(failedOrderId);
    const refusal = ui.panel('Refused for eligibility');
    await refusal
      .getByText('The investor may not subscribe to this share class: country US is blocked by rule set PROF. Nothing was sent on chain for it.', {
        exact: false,
      })
      .waitFor();
    await refusal.getByRole('link', { name: 'rule set PROF' }).waitFor();
    await screenshot(page, 'order-eligibility-refusal');
    await ui.expectAccessible('order eligibility refusal');
  });
});
