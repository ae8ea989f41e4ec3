import type { Browser, Page } from 'playwright-core';
import { screenshot } from '../support/browser';
import { testChains } from '../support/chain';
import { aRuleSet } from '../support/eligibility.factories';
import { consolePage, signedInConsole } from '../support/console-page';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { asOps } from '../support/ops.factories';

/*
 * Onboarding a share class from an empty console, in a real headless Chromium against a gateway
 * on a real database and the worker's anvil: an issuer, a fund, a share class with every
 * documented field and a dealing calendar, a NAV, and its token deployed on chain — all from the
 * page. The tests follow each other as one journey and share its state; they read the gateway
 * only to assert. The journey goes on to a first order in onboarding-first-order.test.ts.
 */
jest.setTimeout(180_000);

describe('Ops console onboarding: a share class (browser)', () => {
  let gw: TestGateway;
  let browser: Browser;
  let page: Page;
  let ui: ReturnType<typeof consolePage>;
  const CHAIN = '31337';
  // The gateway's clock, fixed: the dealing dates the page previews are known.
  const NOW = new Date('2026-12-24T09:00:00Z');
  const made = { issuer: '', fund: '', shareClass: '' };

  beforeAll(async () => {
    gw = await startTestGateway({ chains: await testChains() });
    await gw.reset();
    // The code a share class names as its eligible investors is one of the rule sets' (the form offers only those).
    await aRuleSet(gw.em(), 'PROF');
    gw.clock.set(NOW);
    ({ browser, page, ui } = await signedInConsole(gw));
  });

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  it('creates an issuer and a fund from the page', async () => {
    await page.getByRole('link', { name: 'Issuers' }).click();
    await ui.heading('Issuers');
    await page.getByText('No issuers yet.').waitFor();
    await ui.expectAccessible('issuers');
    await page.getByLabel('Name').fill('Onboard Asset Management S.A.');
    await page.getByLabel('LEI').fill('5493001KJTIIGC8Y1R12');
    await page.getByLabel('Jurisdiction').fill('LU');
    await page.getByRole('button', { name: 'Create issuer' }).click();
    made.issuer = await ui.idFromHash('issuers');
    await ui.heading('Onboard Asset Management S.A.');

    await page.getByLabel('Fund name').fill('Onboard Liquidity Fund');
    await page.getByLabel('Description').fill('Euro money market');
    await screenshot(page, 'issuer');
    await ui.expectAccessible('issuer');
    await page.getByRole('button', { name: 'Create fund' }).click();
    // The next step opens by itself: a share class of the new fund.
    await ui.heading('New share class');
    made.fund = await page.getByLabel('Fund', { exact: true }).inputValue();
    expect(made.fund).toMatch(/^FN\d{6}$/);
  });

  it('creates a share class with every documented field (its refusals: editing.test.ts)', async () => {
    const values: [string, string][] = [
      ['Currency', 'EUR'],
      ['Name', 'Onboard Liquidity EUR I'],
      ['Manager', 'Onboard Asset Management S.A.'],
      ['Subscription fee', '25'],
      ['ISIN', 'LU2900000030'],
      ['Jurisdiction', 'LU'],
      ['Minimum investment', '100'],
      ['Metrics currency', 'EUR'],
      ['Asset class', 'Money Market'],
      ['Description', 'Overnight euro deposits'],
      ['Risk level', '1'],
      ['Eligible investors', 'PROF'],
      ['Account holder', 'Onboard Liquidity Fund'],
      ['Account number', 'LU630019400000001234'],
      ['Bank', 'Banque Example'],
      // Before the last typed field: Enter there submits.
      ['Bank currency', 'EUR'],
      ['SWIFT / BIC', 'BEXALULL'],
    ];
    for (const [label, value] of values) await ui.set(label, value);
    // By keyboard: Enter in the last field submits.
    await page.keyboard.press('Enter');
    made.shareClass = await ui.idFromHash('share-classes');
    await ui.heading('Onboard Liquidity EUR I');
    const { shareClass } = await asOps(
      gw,
      `query($id: ID!) { shareClass(id: $id) { fundId currency feesSubBps details { isin minimumInvestment_fiat } bank { swiftCode } createdBy } }`,
      { id: made.shareClass },
    );
    expect(shareClass).toEqual({
      fundId: made.fund,
      currency: 'EUR',
      feesSubBps: 25,
      details: { isin: 'LU2900000030', minimumInvestment_fiat: 100 },
      bank: { swiftCode: 'BEXALULL' },
      createdBy: 'test-ops',
    });
  });

  it("shows the share class's checklist with the refusals an order would meet", async () => {
    await ui.checklistItem('primaryToken').waitFor();
    await expect(ui.checklistItem('primaryToken').textContent()).resolves.toContain(
      `Until then an order meets: “Share class ${made.shareClass} has no default chain”`,
    );
    await expect(ui.checklistItem('nav').getAttribute('data-done')).resolves.toBe('false');
    await expect(ui.checklistItem('grant').textContent()).resolves.toContain('“shareClassId not found”');
    await expect(ui.checklistItem('calendar').textContent()).resolves.toContain('! Advised');
    await expect(page.locator('.not-ready').textContent()).resolves.toBe('3 things missing before a first order can succeed.');
    await screenshot(page, 'share-class-onboarding');
  });

  it('sets the dealing calendar with a holiday picker, previewing the dates the gateway computes for the draft', async () => {
    const panel = page.locator('section.panel').filter({ has: page.getByRole('heading', { name: 'Dealing calendar' }) });
    const preview = panel.getByRole('region', { name: 'Dealing preview' });
    // The defaults first: every weekday in UTC, cut-off at midnight.
    await preview.getByRole('table', { name: 'Subscriptions: next dealing dates' }).locator('tbody tr').first().waitFor();
    await panel.getByLabel('Time zone').fill('Europe/Luxembourg');
    await panel.getByLabel('Cut-off time').fill('25:00');
    // A draft the gateway refuses: its message in place of the preview.
    await expect(preview.getByRole('alert').locator('.message').textContent()).resolves.toBe('Cut off time must be HH:MM from 00:00 to 24:00');
    await panel.getByLabel('Cut-off time').fill('11:00');
    await panel.getByLabel('Settlement lag (business days)').fill('2');
    await panel.getByLabel('Settlement currencies').fill('USDC');
    // The holiday by keyboard: the date, then Enter adds it.
    await panel.getByLabel('Holiday date').fill('2026-12-25');
    await panel.getByLabel('Holiday date').press('Enter');
    await panel.getByRole('list', { name: 'Holidays' }).getByText('2026-12-25').waitFor();
    const rows = preview.getByRole('table', { name: 'Subscriptions: next dealing dates' }).locator('tbody tr');
    await preview.getByRole('columnheader', { name: 'Cut-off (Europe/Luxembourg)' }).first().waitFor();
    await rows
      .nth(1)
      .locator('td')
      .first()
      .filter({ hasText: /^2026-12-28$/ })
      .waitFor();
    const cells = await rows.evaluateAll((trs) => trs.slice(0, 2).map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    // Thursday 24 December at 09:00 UTC, before the 11:00 cut-off (10:00 UTC); Christmas a holiday.
    expect(cells).toEqual([
      ['2026-12-24', 'Thu 24 Dec, 11:00 (24 Dec, 10:00 UTC)', '2026-12-29'],
      ['2026-12-28', 'Mon 28 Dec, 11:00 (28 Dec, 10:00 UTC)', '2026-12-30'],
    ]);
    await preview.getByText('Orders may be placed in EUR, USDC.').waitFor();
    await panel.scrollIntoViewIfNeeded();
    await screenshot(page, 'dealing-calendar');
    await ui.expectAccessible('dealing calendar');
    // Nothing is stored until saved.
    let stored = await asOps(gw, `query($id: ID!) { shareClass(id: $id) { dealingCalendar { timeZone } } }`, { id: made.shareClass });
    expect(stored.shareClass.dealingCalendar).toBeNull();
    await panel.getByRole('button', { name: 'Save calendar' }).click();
    await panel.getByText('Calendar saved').waitFor();
    stored = await asOps(
      gw,
      `query($id: ID!) { shareClass(id: $id) { dealingCalendar { timeZone cutOffTime settlementLagDays holidays settlementCurrencies updatedBy } } }`,
      { id: made.shareClass },
    );
    expect(stored.shareClass.dealingCalendar).toEqual({
      timeZone: 'Europe/Luxembourg',
      cutOffTime: '11:00',
      settlementLagDays: 2,
      holidays: ['2026-12-25'],
      settlementCurrencies: ['USDC'],
      updatedBy: 'test-ops',
    });
    await ui.checklistDone('calendar');
  });

  it('publishes a NAV; the checklist follows', async () => {
    await page.getByLabel('Close (EUR)').fill('1.0000');
    // Struck at the browser's own time on Luxembourg's wall clock, so the chart (the browser's last year) shows it.
    const [date, time] = await page.evaluate(() =>
      new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Luxembourg', dateStyle: 'short', timeStyle: 'short' }).format(new Date()).split(' '),
    );
    await page.getByLabel('Valuation date (Europe/Luxembourg)').fill(date);
    await page.getByLabel('Time struck (Europe/Luxembourg)').fill(time);
    await page.getByRole('button', { name: 'Publish NAV' }).click();
    await page.getByText(/^NAV 1(\.0+)? EUR published\.$/).waitFor();
    await ui.checklistDone('nav');
    await expect(ui.checklistItem('primaryToken').getAttribute('data-done')).resolves.toBe('false');
    await ui.expectAccessible('share class with checklist');
  });

  it("deploys the share class's token from the page, each deployment transaction followed to its confirmation", async () => {
    const tokens = ui.panel('Tokens');
    // The one chain the gateway writes to is chosen already.
    await expect(tokens.getByLabel('Chain', { exact: true }).inputValue()).resolves.toBe(CHAIN);
    await tokens.getByLabel('Token name').fill('Onboard Liquidity EUR I');
    await tokens.getByLabel('Symbol').fill('OLEI');
    await expect(tokens.getByLabel('Primary token').inputValue()).resolves.toBe('yes');
    await tokens.getByRole('button', { name: 'Deploy token' }).click();
    await tokens.getByRole('button', { name: 'Deploying…' }).waitFor();
    const done = tokens.getByRole('status').filter({ hasText: 'deployed on chain' });
    await done.waitFor({ timeout: 150_000 });
    const { shareClass } = await asOps(
      gw,
      `query($id: ID!) { shareClass(id: $id) { defaultChainId tokens { id chainId contractAddress isPrimary createdBy } } }`,
      { id: made.shareClass },
    );
    expect(shareClass.defaultChainId).toBe(CHAIN);
    expect(shareClass.tokens).toEqual([
      {
        id: expect.stringMatching(/^TK\d{6}$/),
        chainId: CHAIN,
        contractAddress: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
        isPrimary: true,
        createdBy: 'test-ops',
      },
    ]);
    const token = shareClass.tokens[0];
    await expect(done.textContent()).resolves.toBe(`Token ${token.id} deployed on chain ${CHAIN} at ${token.contractAddress}, primary.`);
    // Every transaction of the deployment reached its depth: the chain's set-up, then the token's suite from T-REX's factory, unpaused.
    const steps = tokens.getByRole('list', { name: 'Deployment transactions' }).locator('li');
    const states = await steps.locator('.chain-tx').evaluateAll((els) => els.map((e) => e.getAttribute('data-tx-status')));
    expect(states.length).toBeGreaterThan(0);
    expect(new Set(states)).toEqual(new Set(['confirmed']));
    // each step named by what it does, the chain's factory and the token's suite among them
    await steps.filter({ hasText: 'Deployment: TREXFactory (transaction' }).filter({ hasText: 'creates 0x' }).waitFor();
    await steps.filter({ hasText: 'Deployment: TREXFactory.deployTREXSuite' }).waitFor();
    await steps.filter({ hasText: 'Deployment: unpause' }).waitFor();
    await tokens.getByRole('table', { name: 'Tokens' }).getByRole('cell', { name: token.contractAddress, exact: true }).waitFor();
    await ui.checklistDone('primaryToken');
    await tokens.scrollIntoViewIfNeeded();
    await screenshot(page, 'token-deploy');
    await ui.expectAccessible('share class with its token deployed');
  });
});
