import type { Browser, Page } from 'playwright-core';
import { runInScope } from '../../src/common/request-scope';
import type { Fund } from '../../src/modules/fund/fund.entity';
import { screenshot } from '../support/browser';
import { randomWallet, testChains } from '../support/chain';
import { aChainMarket, opsCall } from '../support/chain.factories';
import { checkerToken } from '../support/approval.factories';
import { aRuleSet } from '../support/eligibility.factories';
import { consolePage, consoleUrl, signedInConsole } from '../support/console-page';
import { aFund, anIssuer } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { asOps } from '../support/ops.factories';

/*
 * A form answered for every field at once, required fields marked before the first submission,
 * chain state that changes on the page without a reload, and a sign-in link opened in a tab that
 * already shows the console. A real headless Chromium on a gateway with the worker's anvil.
 */
describe('Ops console: forms answered at once, state live (browser)', () => {
  let gw: TestGateway;
  let browser: Browser;
  let page: Page;
  let ui: ReturnType<typeof consolePage>;
  let fund: Fund;
  const url = (hash = '') => consoleUrl(gw, hash);

  beforeAll(async () => {
    gw = await startTestGateway({ chains: await testChains(), background: true, events: { pollMs: 50 } });
    await gw.reset();
    // The code a share class names as its eligible investors is one of the rule sets' (the form offers only those).
    await aRuleSet(gw.em(), 'PROF');
    fund = await aFund(gw.em(), { issuer: await anIssuer(gw.em(), { name: 'Live Asset Management S.A.' }), name: 'Live Liquidity Fund' });
    ({ browser, page, ui } = await signedInConsole(gw));
  });

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  it('a new share class: required fields marked from the start, one refusal listing every missing one by label, created at the second submission', async () => {
    await page.goto(url(`#/share-classes/new/${fund.id}`));
    await ui.heading('New share class');
    // given the required marks, before any submission: every text field of the form is required
    const missing = [
      'ISIN',
      'Jurisdiction',
      'Metrics currency',
      'Asset class',
      'Description',
      'Eligible investors',
      'Account holder',
      'Account number',
      'Bank',
      'SWIFT / BIC',
      'Bank currency',
    ];
    for (const label of ['Currency', 'Name', ...missing]) await expect(ui.field(label).getAttribute('aria-required')).resolves.toBe('true');
    // when only the currency and the names are typed and the form is sent
    for (const [label, value] of [
      ['Currency', 'EUR'],
      ['Name', 'Live Liquidity EUR I'],
      ['Manager', 'Live Asset Management S.A.'],
      ['Risk level', '1'],
    ])
      await ui.set(label, value);
    await page.getByRole('button', { name: 'Create share class' }).click();
    // then one refusal lists every missing field by its label, each marked beside itself
    const alert = page.getByRole('alert');
    await expect(alert.locator('.message').textContent()).resolves.toBe(`Not saved: ${missing.length} fields to correct`);
    await expect(alert.locator('li').allTextContents()).resolves.toEqual(missing.map((label) => `${label} is required`));
    for (const label of missing) await expect(ui.field(label).getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(page.locator(':focus').getAttribute('name')).resolves.toBe('details.isin');
    await screenshot(page, 'share-class-form-every-field');
    await ui.expectAccessible('share class form, every missing field');
    // when they are all typed, the second submission creates it
    const values = [
      'LU2900000030',
      'LU',
      'EUR',
      'Money Market',
      'Overnight euro deposits',
      'PROF',
      'Live Liquidity Fund',
      'LU630019400000001234',
      'Banque Example',
      'BEXALULL',
      'EUR',
    ];
    for (const [i, label] of missing.entries()) await ui.set(label, values[i]);
    await page.getByRole('button', { name: 'Create share class' }).click();
    const id = await ui.idFromHash('share-classes');
    const created = await asOps(gw, `query($id: ID!) { shareClass(id: $id) { details { isin jurisdiction } bank { swiftCode } } }`, { id });
    expect(created.shareClass).toEqual({ details: { isin: 'LU2900000030', jurisdiction: 'LU' }, bank: { swiftCode: 'BEXALULL' } });
  });

  it("an investor's wallet turns whitelisted on the page as the chain confirms it, without a reload", async () => {
    // given a market on the worker's chain and the investor's page open
    const m = await aChainMarket(gw);
    await page.goto(url(`#/investors/${m.investor.id}`));
    await ui.heading(m.investor.id);
    await page.evaluate(() => ((globalThis as unknown as { stillThisPage: boolean }).stillThisPage = true));
    // when a wallet is added, and a second principal whitelists it (the gateway registers it on chain)
    const address = randomWallet();
    const added = await opsCall(
      gw,
      `mutation($i: ID!, $a: String!) { addInvestorWallet(input: { investorId: $i, chainId: "31337", address: $a }) { status } }`,
      {
        i: m.investor.id,
        a: address,
      },
    );
    expect(added.data.addInvestorWallet.status).toBe('pending');
    const whitelisting = await gw.graphql(
      `mutation($i: ID!) { whitelistInvestorWallet(input: { investorId: $i, chainId: "31337" }) { status } }`,
      { i: m.investor.id },
      { token: await checkerToken(gw) },
    );
    expect(whitelisting.body.data.whitelistInvestorWallet.status).toBe('pending');
    // then, the page read again only on the gateway's word, the wallet reads whitelisted
    const row = page.getByRole('table', { name: 'Wallets' }).getByRole('row').filter({ hasText: address });
    await row.filter({ hasText: 'whitelisted' }).waitFor({ timeout: 60_000 });
    await expect(page.evaluate(() => (globalThis as unknown as { stillThisPage?: boolean }).stillThisPage)).resolves.toBe(true);
  }, 180_000);

  it('a new sign-in link opened in the tab of an older session signs in at once', async () => {
    // given the console open under the suite's token, and a new one issued (as a restart prints)
    await page.goto(url('#/issuers'));
    await ui.heading('Issuers');
    const fresh = (await runInScope({ actor: 'test' }, () => gw.gateway.services.opsToken.issue(gw.em(), 'night-shift', ['admin']))).token;
    // when its link is opened in the same tab (only the address's fragment changes: no page loads)
    await page.evaluate((t) => ((globalThis as unknown as { location: { hash: string } }).location.hash = `#token=${t}`), fresh);
    // then the console is signed in with it, the token gone from the address bar
    await page.locator('.who strong').filter({ hasText: 'night-shift' }).waitFor();
    await ui.heading('Today');
    expect(page.url()).toBe(url('#/'));
  });
});
