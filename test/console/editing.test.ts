import type { Browser, Page } from 'playwright-core';
import type { Fund } from '../../src/modules/fund/fund.entity';
import type { ShareClass } from '../../src/modules/share-class/share-class.entity';
import { screenshot } from '../support/browser';
import { aRuleSet } from '../support/eligibility.factories';
import { consolePage, consoleUrl, signedInConsole } from '../support/console-page';
import { aDistributor, aFund, anIssuer, aShareClass } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { asOps } from '../support/ops.factories';

/*
 * The console's forms where the gateway refuses: its message beside the field it names, which is
 * marked, described by it and focused; everything typed kept; the correction made by keyboard.
 * Records arranged by factories, changed only through the page, in a real headless Chromium.
 */
describe('Ops console forms, refused and corrected (browser)', () => {
  let gw: TestGateway;
  let browser: Browser;
  let page: Page;
  let ui: ReturnType<typeof consolePage>;
  let fund: Fund;
  let shareClass: ShareClass;
  let distributorId = '';
  const HOST = 'edit.test';
  const url = (hash = '') => consoleUrl(gw, hash);

  beforeAll(async () => {
    gw = await startTestGateway();
    await gw.reset();
    // The code a share class names as its eligible investors is one of the rule sets' (the form offers only those).
    await aRuleSet(gw.em(), 'PROF');
    const em = gw.em();
    fund = await aFund(em, { issuer: await anIssuer(em, { name: 'Edit Asset Management S.A.' }), name: 'Edit Liquidity Fund' });
    shareClass = await aShareClass(em, { fund });
    distributorId = (await aDistributor(em, [HOST], { name: 'Edit Bank AG' })).id;
    ({ browser, page, ui } = await signedInConsole(gw));
  });

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  it('a new share class refused for its ISIN: the message beside that field, the rest as typed; corrected by keyboard', async () => {
    await page.goto(url(`#/share-classes/new/${fund.id}`));
    await ui.heading('New share class');
    const values: [string, string][] = [
      ['Currency', 'EUR'],
      ['Name', 'Edit Liquidity EUR I'],
      ['Manager', 'Edit Asset Management S.A.'],
      ['Subscription fee', '25'],
      ['ISIN', 'XX123'],
      ['Jurisdiction', 'LU'],
      ['Minimum investment', '100'],
      ['Metrics currency', 'EUR'],
      ['Asset class', 'Money Market'],
      ['Description', 'Overnight euro deposits'],
      ['Risk level', '1'],
      ['Eligible investors', 'PROF'],
      ['Account holder', 'Edit Liquidity Fund'],
      ['Account number', 'LU630019400000001234'],
      ['Bank', 'Banque Example'],
      // Before the last typed field: Enter there submits.
      ['Bank currency', 'EUR'],
      ['SWIFT / BIC', 'BEXALULL'],
    ];
    for (const [label, value] of values) await ui.set(label, value);
    await page.getByRole('button', { name: 'Create share class' }).click();

    // One message, beside the field it names, in its label's words: nothing repeats it under the button.
    await page.locator('.field-error').waitFor();
    const isin = page.getByLabel('ISIN', { exact: true });
    await expect(isin.getAttribute('aria-invalid')).resolves.toBe('true');
    const note = page.locator('.field-error');
    await expect(note.textContent()).resolves.toBe('ISIN must be an ISIN of 2 letters, 9 letters or digits and 1 check digit (ISO 6166)');
    await expect(page.getByRole('alert').count()).resolves.toBe(0);
    await expect(isin.getAttribute('aria-describedby')).resolves.toContain(await note.getAttribute('id'));
    await expect(page.locator(':focus').getAttribute('name')).resolves.toBe('details.isin');
    await expect(page.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe('Edit Liquidity EUR I');
    await expect(ui.field('Subscription fee').inputValue()).resolves.toBe('25');
    await screenshot(page, 'share-class-form-refused');
    await ui.expectAccessible('share class form, refused');

    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('LU2900000030');
    await page.keyboard.press('Enter');
    const id = await ui.idFromHash('share-classes');
    await ui.heading('Edit Liquidity EUR I');
    const created = await asOps(gw, `query($id: ID!) { shareClass(id: $id) { fundId feesSubBps details { isin minimumInvestment_fiat } createdBy } }`, { id });
    expect(created.shareClass).toEqual({
      fundId: fund.id,
      feesSubBps: 25,
      details: { isin: 'LU2900000030', minimumInvestment_fiat: 100 },
      createdBy: 'test-ops',
    });
  });

  it('edits the issuer, the fund and the share class, a refusal again beside its field', async () => {
    await page.goto(url(`#/issuers/${fund.issuer.id}`));
    await ui.heading('Edit Asset Management S.A.');
    await page.getByRole('form', { name: 'Save issuer' }).getByLabel('Jurisdiction').fill('IE');
    await page.getByRole('button', { name: 'Save issuer' }).click();
    await page.locator('.facts').getByText('IE', { exact: true }).waitFor();

    await page
      .getByRole('row', { name: /Edit Liquidity Fund/ })
      .getByRole('button', { name: 'Edit' })
      .click();
    const dialog = page.getByRole('dialog', { name: `Edit fund ${fund.id}` });
    await dialog.getByLabel('Fund name').fill('Edit Liquidity Fund II');
    await dialog.getByRole('button', { name: 'Save fund' }).click();
    await page.getByRole('cell', { name: 'Edit Liquidity Fund II', exact: true }).waitFor();

    await page.goto(url(`#/share-classes/${shareClass.id}`));
    await page.getByRole('link', { name: 'Edit share class' }).click();
    await ui.heading(/Edit Test Class A/);
    const manager = page.getByLabel('Manager', { exact: true });
    await expect(manager.inputValue()).resolves.toBe('Test Manager');
    await manager.fill('Edit Investment Managers');
    await page.getByLabel(/^Risk level/).fill('9');
    await page.getByRole('button', { name: 'Save share class' }).click();
    await expect(page.locator('.field-error').textContent()).resolves.toBe('Risk level must be an integer from 1 to 7');
    await expect(page.locator(':focus').getAttribute('name')).resolves.toBe('overview.riskLevel');
    await expect(manager.inputValue()).resolves.toBe('Edit Investment Managers');
    // Corrected by keyboard where the focus already is.
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('2');
    await expect(page.getByLabel(/^Risk level/).inputValue()).resolves.toBe('2');
    await ui.expectAccessible('share class edit, refused');
    await page.getByRole('button', { name: 'Save share class' }).click();
    await page.waitForURL(new RegExp(`#/share-classes/${shareClass.id}$`));
    await page.locator('.facts').getByText('Edit Investment Managers', { exact: true }).waitFor();
    const saved = await asOps(gw, `query($id: ID!) { shareClass(id: $id) { meta { manager } overview { riskLevel } updatedBy } }`, { id: shareClass.id });
    expect(saved.shareClass).toEqual({ meta: { manager: 'Edit Investment Managers' }, overview: { riskLevel: 2 }, updatedBy: 'test-ops' });
  });

  it('the share class form chooses from closed lists and sets the NAV control and the dealing week', async () => {
    await page.goto(url(`#/share-classes/${shareClass.id}/edit`));
    await ui.heading(/Edit /);
    const status = ui.field('Status');
    await expect(status.evaluate((e) => e.tagName)).resolves.toBe('SELECT');
    await expect(status.locator('option').allTextContents()).resolves.toEqual(['active', 'suspended', 'closed']);
    await expect(ui.field('Currency').inputValue()).resolves.toBe(shareClass.currency);
    await expect(ui.field('Currency').locator('option[value="EUR"]').count()).resolves.toBe(1);
    // A class of the default asset class (other) shows no tolerance of its own; the factory's deals every day.
    await expect(ui.field('NAV asset class (CSSF 24/856)').inputValue()).resolves.toBe('other');
    await expect(ui.field('NAV tolerance (bps)').inputValue()).resolves.toBe('');
    await expect(page.getByRole('checkbox', { name: 'Friday' }).isChecked()).resolves.toBe(true);
    await expect(page.getByRole('checkbox', { name: 'Sunday' }).isChecked()).resolves.toBe(true);

    await status.selectOption('suspended');
    await ui.field('NAV asset class (CSSF 24/856)').selectOption('bond');
    await page.getByText("Empty: the asset class's, 50 bps.", { exact: false }).waitFor();
    await ui.field('NAV tolerance (bps)').fill('30');
    await page.getByRole('checkbox', { name: 'Saturday' }).uncheck();
    await page.getByRole('checkbox', { name: 'Sunday' }).uncheck();
    await ui.expectAccessible('share class form, NAV control and dealing week');
    await page.getByRole('button', { name: 'Save share class' }).click();
    await page.waitForURL(new RegExp(`#/share-classes/${shareClass.id}$`));
    const saved = await asOps(gw, `query($id: ID!) { shareClass(id: $id) { status navAssetClass navToleranceBps dealingWeekdays } }`, { id: shareClass.id });
    expect(saved.shareClass).toEqual({ status: 'suspended', navAssetClass: 'bond', navToleranceBps: 30, dealingWeekdays: [1, 2, 3, 4, 5] });

    // Read back as saved.
    await page.getByRole('link', { name: 'Edit share class' }).click();
    await expect(ui.field('NAV tolerance (bps)').inputValue()).resolves.toBe('30');
    await expect(page.getByRole('checkbox', { name: 'Sunday' }).isChecked()).resolves.toBe(false);
    await page.getByRole('checkbox', { name: 'Saturday' }).check();
    await page.getByRole('checkbox', { name: 'Sunday' }).check();
    await status.selectOption('active');
    await page.getByRole('button', { name: 'Save share class' }).click();
    await page.waitForURL(new RegExp(`#/share-classes/${shareClass.id}$`));
  });

  it("a host's binding refused twice, each time beside the field it names with the other as typed, corrected by keyboard", async () => {
    await page.goto(url(`#/distributors/${distributorId}`));
    await ui.heading('Edit Bank AG');
    const form = page.getByRole('form', { name: `Binding of ${HOST}` });
    await form.getByLabel('Source ranges').fill('127.0.0.0/8, 10.0.0.300/8');
    await form.getByLabel('Client certificate SHA-256').fill('ab:cd');
    await form.getByRole('button', { name: 'Save binding' }).click();
    await expect(form.locator('.field-error').textContent()).resolves.toBe('sourceRanges entry "10.0.0.300/8" must be an IP address or CIDR range');
    await expect(page.locator(':focus').getAttribute('name')).resolves.toBe('sourceRanges');
    await expect(form.getByLabel('Client certificate SHA-256').inputValue()).resolves.toBe('ab:cd');
    await screenshot(page, 'host-binding');
    await ui.expectAccessible('host binding, refused');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('127.0.0.0/8');
    await page.keyboard.press('Enter');
    await expect(form.locator('.field-error').textContent()).resolves.toBe('clientCertSha256 must be a SHA-256 fingerprint: 64 hex digits, colons allowed');
    await expect(page.locator(':focus').getAttribute('name')).resolves.toBe('clientCertSha256');
    await expect(form.getByLabel('Source ranges').inputValue()).resolves.toBe('127.0.0.0/8');
    // No certificate over plain HTTP: the binding is the source range alone.
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Enter');
    await page
      .getByRole('status')
      .filter({ hasText: `Binding of ${HOST} saved by test-ops.` })
      .waitFor();
    await page.locator(`li[data-hostname="${HOST}"] .binding`).filter({ hasText: 'bound from 127.0.0.0/8' }).waitFor();
    const { distributor } = await asOps(gw, `query($id: ID!) { distributor(id: $id) { hosts { hostname sourceRanges clientCertSha256 updatedBy } } }`, {
      id: distributorId,
    });
    expect(distributor.hosts).toEqual([{ hostname: HOST, sourceRanges: ['127.0.0.0/8'], clientCertSha256: null, updatedBy: 'test-ops' }]);
  });
});
