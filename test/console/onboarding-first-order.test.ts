import type { Browser, Page } from 'playwright-core';
import { parseUnits } from 'viem';
import { InvestorWallet, WalletStatus } from '../../src/modules/investor/investor.entity';
import { screenshot } from '../support/browser';
import { chainClients, eventually, testChains, workerChain } from '../support/chain';
import { consolePage, consoleUrl, signedInConsole } from '../support/console-page';
import { checkerToken } from '../support/approval.factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aFundViaOps, aShareClassViaOps, asOps } from '../support/ops.factories';

/*
 * A first order from the console, in a real headless Chromium against a gateway on a real
 * database and the worker's anvil. Given a share class as onboarding-share-class.test.ts leaves
 * it (a dealing calendar, a NAV and its token deployed on chain; provisioned here over the ops
 * API): a distributor with a host, its binding and a grant, an investor with a grant and a wallet
 * — all from the page — whitelisted on chain by a second principal, then one order placed over REST as the distributor,
 * accepted from its page and settled with its dealing date from the share class page: minted on
 * chain, reconciled, `settled`. The tests follow each other as one journey and share its state;
 * past the provisioning they read the gateway and the chain only to assert.
 */
jest.setTimeout(180_000);

describe('Ops console onboarding: a first order (browser)', () => {
  let gw: TestGateway;
  let browser: Browser;
  let page: Page;
  let ui: ReturnType<typeof consolePage>;
  const HOST = 'onboard.test';
  const CHAIN = '31337';
  const WALLET = `0x${'5a'.repeat(20)}`;
  // The gateway's clock, fixed: the dealing dates the page previews and the order gets are known.
  const NOW = new Date('2026-12-24T09:00:00Z');
  const made = { shareClass: '', distributor: '', investor: '', order: '', token: '' };

  const url = (hash = '') => consoleUrl(gw, hash);

  beforeAll(async () => {
    gw = await startTestGateway({ chains: await testChains() });
    await gw.reset();
    gw.clock.set(NOW);
    await aShareClassReadyToDeal();
    ({ browser, page, ui } = await signedInConsole(gw));
  });

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  /** The share class the first journey onboards from the page: calendar, a NAV of an earlier date, its primary token on chain. */
  async function aShareClassReadyToDeal() {
    const { fund } = await aFundViaOps(gw);
    const sc = await aShareClassViaOps(gw, fund.id, {
      meta: { name: 'Onboard Liquidity EUR I', manager: 'Onboard Asset Management S.A.' },
      details: { isin: 'LU2900000030', jurisdiction: 'LU', minimumInvestment_fiat: 100 },
      // The page's choices: no fee but the subscription fee typed; dealing every business day, the cut-off on the dealing day itself.
      feesRedBps: 0,
      feesMgmtBps: 0,
      subRedemption: { subFreq: 1, redFreq: 1, cutOffTime_days: 0, lockup: 0, eligibleInvestors: 'PROF', distributionPolicy: 'Accumulating' },
    });
    made.shareClass = sc.id;
    await asOps(
      gw,
      `mutation($sc: ID!) { setDealingCalendar(shareClassId: $sc, input: {timeZone: "Europe/Luxembourg", cutOffTime: "11:00", settlementLagDays: 2, holidays: ["2026-12-25"], settlementCurrencies: ["USDC"]}) { timeZone } }`,
      { sc: sc.id },
    );
    // Published at the real time, as the page publishes it: not a NAV of the order's dealing date.
    await asOps(gw, `mutation($sc: String!, $at: EpochMs!) { publishNav(input: {shareClassId: $sc, close: "1.2450", publishedAt: $at}) { entryId } }`, {
      sc: sc.id,
      at: Date.now() - 60_000,
    });
    const { deployToken } = await asOps(
      gw,
      `mutation($sc: ID!) { deployToken(input: { shareClassId: $sc, chainId: "${CHAIN}", name: "Onboard Liquidity EUR I", symbol: "OLEI", decimals: 6, isPrimary: true }) { contractAddress } }`,
      { sc: sc.id },
    );
    made.token = deployToken.contractAddress;
  }

  it('creates a distributor with a host and a grant, registers an investor and gives it a wallet', async () => {
    await page.getByRole('link', { name: 'Distributors' }).click();
    await ui.heading('Distributors');
    await ui.expectAccessible('distributors');
    await page.getByLabel('Name').fill('Onboard Bank AG');
    await page.getByRole('button', { name: 'Create distributor' }).click();
    made.distributor = await ui.idFromHash('distributors');
    await ui.heading('Onboard Bank AG');
    await ui.checklistItem('host').waitFor();
    await expect(ui.checklistItem('host').textContent()).resolves.toContain('“host <its hostname> is not provisioned for any distributor”');

    await page.getByLabel('Hostname').fill(HOST);
    await page.getByRole('button', { name: 'Add host' }).click();
    await page.getByText(HOST, { exact: true }).waitFor();
    // Bound to the loopback range the REST call below comes from (the form's refusals: editing.test.ts).
    const binding = page.getByRole('form', { name: `Binding of ${HOST}` });
    await binding.getByLabel('Source ranges').fill('127.0.0.0/8');
    await binding.getByRole('button', { name: 'Save binding' }).click();
    await page.locator(`li[data-hostname="${HOST}"] .binding`).filter({ hasText: 'bound from 127.0.0.0/8' }).waitFor();
    await page.getByLabel('Share class', { exact: true }).selectOption(made.shareClass);
    await page.getByRole('button', { name: 'Grant', exact: true }).click();
    await page.getByRole('table', { name: 'Grants' }).getByText(made.shareClass, { exact: true }).waitFor();

    await page.getByLabel('External investor id').fill('crm-onboard-1');
    await page.getByLabel('E-mail').fill('first.investor@example.com');
    await page.getByRole('button', { name: 'Register investor' }).click();
    const notice = page.getByRole('status').filter({ hasText: 'registered' });
    await notice.waitFor();
    made.investor = (await notice.getByRole('link').textContent())!;
    expect(made.investor).toMatch(/^IN\d{6}$/);
    await ui.checklistDone('investor');
    await expect(ui.checklistItem('investorWallet').textContent()).resolves.toContain(
      '“chainId and walletAddress are required (on the order or the investor profile) before settlement”',
    );
    await screenshot(page, 'distributor-onboarding');
    await ui.expectAccessible('distributor with checklist');

    await notice.getByRole('link').click();
    await ui.heading(made.investor);
    await page.getByLabel('Share class', { exact: true }).selectOption(made.shareClass);
    await page.getByRole('button', { name: 'Grant', exact: true }).click();
    // The gateway's one chain is preselected.
    const walletChain = page.getByLabel('Chain', { exact: true });
    await walletChain.locator(`option[value="${CHAIN}"]`).waitFor({ state: 'attached' });
    await expect(walletChain.inputValue()).resolves.toBe(CHAIN);
    await page.getByLabel('Address').fill(WALLET);
    // Added pending: whitelisting it on chain is a second principal's step (segregation of duties,
    // docs/approvals.md), which the checker takes with its own token.
    await page.getByLabel('Whitelist now').selectOption('no');
    await page.getByRole('button', { name: 'Add wallet' }).click();
    const wallet = page.getByRole('table', { name: 'Wallets' }).getByRole('row', { name: new RegExp(WALLET) });
    await wallet.waitFor();
    await expect(wallet.locator('.status').textContent()).resolves.toBe('pending');
    // A second wallet on that chain is refused by the gateway: the form says so before any submit.
    const addWallet = page.getByRole('form', { name: 'Add wallet' });
    await expect(addWallet.getByRole('note').textContent()).resolves.toMatch(
      new RegExp(`^One wallet per chain: ${WALLET} is this investor's on chain ${CHAIN}\\.`),
    );
    await expect(addWallet.getByRole('button', { name: 'Add wallet' }).isDisabled()).resolves.toBe(true);
    const whitelisting = await gw.graphql(
      `mutation($i: ID!) { whitelistInvestorWallet(input: { investorId: $i, chainId: "${CHAIN}" }) { status } }`,
      { i: made.investor },
      { token: await checkerToken(gw) },
    );
    // Pending until its identity is registered on chain, in the token's identity registry.
    expect(whitelisting.body.data.whitelistInvestorWallet.status).toBe('pending');
    await eventually(
      'the wallet whitelisted on chain',
      async () => (await gw.em().findOne(InvestorWallet, { investor: made.investor, chainId: CHAIN, status: WalletStatus.whitelisted })) ?? undefined,
    );
    await page.reload();
    await wallet.locator('.status-whitelisted').waitFor();
    await ui.expectAccessible('investor');
  });

  it('places one order over REST as the distributor and sees it on the blotter with the dealing date the preview gave', async () => {
    const res = await gw.api('POST', '/orders/subscribe', {
      host: HOST,
      body: { distributorId: made.distributor, investorId: made.investor, shareClassId: made.shareClass, amount: 2500, currency: 'USDC' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: 'pending',
      dealingDate: '2026-12-24',
      expectedSettlementDate: '2026-12-29',
      cutOffAt: Date.parse('2026-12-24T10:00:00Z'),
    });
    made.order = res.body.data.orderId;
    await page.getByRole('link', { name: 'Blotter' }).click();
    const row = page.locator(`tr[data-order-id="${made.order}"]`);
    await row.waitFor();
    await expect(row.getAttribute('data-status')).resolves.toBe('pending');
    await expect(row.textContent()).resolves.toContain('2026-12-24');

    // The distributor's checklist: with the token deployed and the wallet whitelisted on its
    // chain, nothing stops a first order; a surface-O credential is only advised.
    await page.goto(url(`#/distributors/${made.distributor}`));
    await ui.heading('Onboard Bank AG');
    await ui.checklistItem('investorWallet').waitFor();
    await expect(page.locator('.checklist li[data-done="false"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-key')))).resolves.toEqual([
      'credential',
    ]);
    await expect(page.locator('.ready').textContent()).resolves.toBe('Ready: nothing stops a first order.');
  });

  it("accepts the order from its page and settles its dealing date from the share class's page: refused until the date's NAV is published, then minted on chain and settled", async () => {
    await page.goto(url(`#/orders/${made.order}`));
    await ui.heading(made.order);
    // By keyboard: the dialog opens on its note field; Enter confirms.
    await page.getByRole('button', { name: 'Accept' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: `Accept ${made.order}?` }).waitFor();
    await page.keyboard.type('funds received');
    await page.keyboard.press('Enter');
    await page.locator('h1 .status-accepted').waitFor();

    await page.goto(url(`#/share-classes/${made.shareClass}`));
    await ui.heading('Onboard Liquidity EUR I');
    const settlement = ui.panel('Dealing-date settlement');
    await settlement.getByLabel('Dealing date').fill('2026-12-24');
    await settlement.getByRole('button', { name: 'Preview settlement' }).click();
    // The API's 409, as it words it: the date's NAV is not published (only the November one is).
    await expect(settlement.getByRole('alert').locator('.message').textContent()).resolves.toBe(
      'No NAV published for dealing date 2026-12-24: the orders of that date are priced at it, so they settle once it is',
    );
    // One message, in words: no code beside it.
    await expect(settlement.getByRole('alert').locator('.code').count()).resolves.toBe(0);

    await page.getByLabel('Close (EUR)').fill('1.25');
    // The valuation date and time on Luxembourg's wall clock: 09:30 there is 08:30 UTC in December.
    await page.getByLabel('Valuation date (Europe/Luxembourg)').fill('2026-12-24');
    await page.getByLabel('Time struck (Europe/Luxembourg)').fill('09:30');
    await page.getByRole('button', { name: 'Publish NAV' }).click();
    await page.getByText(/^NAV 1\.25 EUR published\.$/).waitFor();
    const { liveNav } = await asOps(gw, `query($sc: String!) { liveNav(shareClassId: $sc) { close publishedAt } }`, { sc: made.shareClass });
    expect(liveNav).toEqual({ close: '1.25', publishedAt: Date.parse('2026-12-24T08:30:00Z') });
    await settlement.getByRole('button', { name: 'Preview settlement' }).click();
    const preview = settlement.getByRole('region', { name: 'Settlement preview' });
    await preview.waitFor();
    const api = (
      await asOps(
        gw,
        `query($sc: ID!) { dealingSettlementPreview(shareClassId: $sc, dealingDate: "2026-12-24") { nav tokensMinted rows { orderId type wallet tokens amount refusal } } }`,
        { sc: made.shareClass },
      )
    ).dealingSettlementPreview;
    // 2,500 at the date's NAV of 1.25: 2,000 tokens.
    expect(api).toEqual({
      nav: '1.25',
      tokensMinted: '2000',
      rows: [{ orderId: made.order, type: 'subscription', wallet: WALLET, tokens: '2000', amount: '2500', refusal: null }],
    });
    const cells = await preview
      .getByRole('table', { name: 'Orders of the dealing date' })
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(cells).toEqual([[made.order, 'subscription', WALLET, '2,000', '2,500', 'settles']]);
    await expect(preview.locator('.facts div').filter({ hasText: 'NAV used' }).locator('dd').textContent()).resolves.toMatch(/^1\.25 EUR, published /);
    await expect(preview.locator('.facts div').filter({ hasText: 'Tokens minted' }).locator('dd').textContent()).resolves.toBe('2,000');
    await settlement.scrollIntoViewIfNeeded();
    await screenshot(page, 'dealing-settlement-preview');
    await ui.expectAccessible('dealing-date settlement preview');

    await settlement.getByRole('button', { name: 'Settle dealing date' }).click();
    await page.getByRole('dialog', { name: 'Settle 2026-12-24?' }).getByRole('button', { name: 'Settle', exact: true }).click();
    const outcome = settlement.getByRole('region', { name: 'Settlement outcome' });
    await outcome.getByRole('status').filter({ hasText: 'Dealing date 2026-12-24: 1 settled, 0 failed.' }).waitFor({ timeout: 60_000 });
    const byOrder = await outcome
      .getByRole('table', { name: 'Outcome by order' })
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(byOrder).toEqual([[made.order, 'settled', '']]);
    // One batchMint, at its depth.
    const batches = outcome.getByRole('list', { name: 'Settlement transactions' }).locator('[data-tx-status]');
    await expect(batches.evaluateAll((els) => els.map((e) => e.getAttribute('data-tx-status')))).resolves.toEqual(['confirmed']);
    // The keyboard continues from the outcome, though the share class was read again around it.
    await expect(page.locator(':focus').textContent()).resolves.toBe('Dealing date 2026-12-24: 1 settled, 0 failed.');
    await settlement.scrollIntoViewIfNeeded();
    await screenshot(page, 'dealing-settlement-outcome');
    await ui.expectAccessible('dealing-date settlement outcome');

    // The register against the chain, per wallet, at one pinned block.
    const reconciliation = ui.panel('Reconciliation with the chain');
    await reconciliation.getByRole('button', { name: 'Reconcile now' }).click();
    const result = reconciliation.getByRole('region', { name: 'Reconciliation result' });
    await result.getByRole('status').filter({ hasText: 'the register is true to the chain (1 holder compared).' }).waitFor();
    const onChain = await chainClients((await workerChain()).rpcUrl).balanceOf(made.token, WALLET);
    expect(onChain).toBe(parseUnits('2000', 6));
    const balances = await result
      .getByRole('table', { name: 'Balances by wallet' })
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(balances).toEqual([[made.investor, WALLET, '2,000', '2,000', '0']]);
    await reconciliation.scrollIntoViewIfNeeded();
    await screenshot(page, 'reconciliation');
    await ui.expectAccessible('reconciliation');

    // The end of the journey: the order's page says settled, and so does the book.
    await page.goto(url(`#/orders/${made.order}`));
    await page.locator('h1 .status-settled').waitFor();
    await screenshot(page, 'order-settled', { fullPage: true });
    const { order } = await asOps(gw, `query($id: ID!) { order(id: $id) { status settlementTokens settlementNav } }`, { id: made.order });
    expect(order).toEqual({ status: 'settled', settlementTokens: '2000', settlementNav: '1.25' });
  });
});
