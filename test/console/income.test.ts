import type { Browser, Page } from 'playwright-core';
import { runInScope } from '../../src/common/request-scope';
import { bookOpening } from '../../src/modules/holding/holding-ledger';
import { screenshot } from '../support/browser';
import { aChainMarket } from '../support/chain.factories';
import { testChains } from '../support/chain';
import { consolePage, consoleUrl, signedInConsole } from '../support/console-page';
import { aDistributor, aGrant, anInvestor, aShareClass } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { asOps } from '../support/ops.factories';

jest.setTimeout(180_000);
const DAY = 86_400_000;
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/*
 * Income and the register in the console, in a real headless Chromium: a cash distribution on a
 * class without a token is declared after its preview, paid and followed; a class with a token on
 * anvil shows its register at a past date.
 */
describe('Ops console: distributions and the register at a date (browser)', () => {
  let gw: TestGateway;
  let browser: Browser;
  let page: Page;
  let ui: ReturnType<typeof consolePage>;
  const book = (investorId: string, shareClassId: string, quantity: string, at: Date) =>
    runInScope({ actor: 'factory' }, () => gw.em().transactional((em) => bookOpening(em, { investorId, shareClassId, quantity, settledAt: at, at })));
  const rows = (table: string) =>
    page
      .getByRole('table', { name: table, exact: true })
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));

  beforeAll(async () => {
    gw = await startTestGateway({ chains: await testChains(), background: true });
    await gw.reset();
    ({ browser, page, ui } = await signedInConsole(gw));
  });
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  it('declares a cash distribution after previewing its entitlements, pays it, and shows it paid', async () => {
    const em = gw.em();
    const shareClass = await aShareClass(em, { currency: 'EUR', meta: { name: 'Income Class', manager: 'Income Manager' } });
    const distributor = await aDistributor(em, [], { name: 'Income Distributor' });
    await aGrant(em, distributor, shareClass);
    const investor = await anInvestor(em, distributor, { grants: [shareClass] });
    await book(investor.id, shareClass.id, '333.333333', new Date(Date.now() - 10 * DAY));
    await asOps(gw, `mutation($sc: ID!) { setDistributionPolicy(shareClassId: $sc, treatment: distributing, payment: cash) { treatment } }`, {
      sc: shareClass.id,
    });
    const recordDate = utcDay(Date.now() - 3 * DAY);

    await page.goto(consoleUrl(gw, `#/distributions/${shareClass.id}`));
    await ui.heading('Distributions');
    await ui.field('Record date').fill(recordDate);
    await ui.field('Pay date').fill(utcDay(Date.now()));
    await ui.field('Amount per token').fill('0.0123');
    await page.getByRole('button', { name: 'Preview entitlements' }).click();
    await page.getByRole('table', { name: 'Preview', exact: true }).waitFor();
    expect(await rows('Preview')).toEqual([[investor.id, '1', '333.333333', '4.0999999959']]);
    await page.getByRole('button', { name: 'Declare', exact: true }).click();
    const declared = page.getByRole('table', { name: 'Distributions', exact: true }).locator('tbody tr').first();
    await declared.getByText('declared').waitFor();
    await screenshot(page, 'distributions-declared', { fullPage: true });
    await declared.getByRole('button', { name: /^Pay distribution/ }).click();
    await declared.getByText('paid', { exact: true }).waitFor();
    const [row] = await rows('Distributions');
    expect(row.slice(1, 9)).toEqual([
      `record date ${recordDate}`,
      utcDay(Date.now()),
      '0.0123 per token',
      'cash',
      '4.0999999959 EUR',
      '4.09 EUR',
      '0.0099999959',
      expect.stringMatching(/^paid/),
    ]);
    await declared.getByRole('button', { name: /^Entitlements of distribution/ }).click();
    await page
      .getByRole('table', { name: /^Entitlements of distribution/ })
      .getByRole('cell', { name: '4.09', exact: true })
      .waitFor();
    await ui.expectAccessible('distributions');
  });

  it('shows the register of a class at a past date, holders and their balances', async () => {
    const m = await aChainMarket(gw);
    await book(m.investor.id, m.shareClass.id, '800', new Date(Date.now() - 10 * DAY));
    const asOf = utcDay(Date.now() - 3 * DAY);
    await page.goto(consoleUrl(gw, `#/share-classes/${m.shareClass.id}`));
    await ui.heading(m.shareClass.id);
    const panel = ui.panel('Register at a date');
    await panel.getByLabel(/^As of/).fill(asOf);
    await panel.getByRole('button', { name: 'Show the register' }).click();
    await page.getByRole('table', { name: `Register at ${asOf}`, exact: true }).waitFor();
    expect((await rows(`Register at ${asOf}`)).map((r) => r.slice(0, 4))).toEqual([[m.investor.id, m.distributor.id, '800', '0']]);
    const download = page.waitForEvent('download');
    await panel.getByRole('button', { name: 'Download CSV' }).click();
    expect((await download).suggestedFilename()).toBe(`register-${m.shareClass.id}-${asOf}.csv`);
  });
});
