import type { Browser, Page } from 'playwright-core';
import { TOKEN_ABI } from '../../src/modules/chain/contracts';
import { WalletFreeze, WalletFreezeStatus } from '../../src/modules/investor/wallet-freeze.entity';
import { newPage, screenshot } from '../support/browser';
import { chainClients, eventually, randomWallet, testChains, workerChain } from '../support/chain';
import { aChainMarket, aWhitelistedWallet } from '../support/chain.factories';
import { consolePage, consoleUrl, signedInConsole } from '../support/console-page';
import { startTestGateway, type TestGateway } from '../support/gateway';

/*
 * Freezing a wallet from the investor's page (docs/approvals.md#freezing-a-wallet): an operator
 * freezes it on a share class at once, a blank reason refused by the gateway beside its field; the
 * wallet's row shows it frozen on chain; the operator requests its unfreeze, which a viewer is not
 * offered, and which waits in Approvals for another principal.
 */
jest.setTimeout(240_000);

describe('Ops console: freezing a wallet (browser)', () => {
  let gw: TestGateway;
  let browser: Browser;
  let page: Page;
  let ui: ReturnType<typeof consolePage>;

  beforeAll(async () => {
    gw = await startTestGateway({ chains: await testChains() });
    await gw.reset();
    ({ browser, page, ui } = await signedInConsole(gw));
  });

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  it('freezes a wallet on a class with a required reason, shows it frozen, and requests its unfreeze for another principal to approve', async () => {
    const m = await aChainMarket(gw);
    const wallet = randomWallet();
    await aWhitelistedWallet(gw, m.investor.id, wallet);

    await page.goto(consoleUrl(gw, `#/investors/${m.investor.id}`));
    await ui.heading(m.investor.id);
    const row = ui
      .panel('Wallets')
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: wallet, exact: true }) });
    await row.getByRole('button', { name: 'Freeze…' }).click();
    const dialog = page.getByRole('dialog', { name: `Freeze ${wallet}?` });
    await ui.expectAccessible('freeze dialog');
    await dialog.getByLabel(/^Share class/).selectOption(m.shareClass.id);
    // A reason of spaces passes the browser's `required`: the gateway refuses it, beside the field.
    await dialog.getByLabel(/^Reason/).fill('   ');
    await dialog.getByRole('button', { name: 'Freeze…' }).click();
    await dialog.getByText('Reason is required').first().waitFor();
    await expect(dialog.getByText('BAD_USER_INPUT').count()).resolves.toBe(0);
    await expect(gw.em().count(WalletFreeze, {})).resolves.toBe(0);

    await dialog.getByLabel(/^Reason/).fill('court seizure order 2026/7');
    await dialog.getByRole('button', { name: 'Freeze…' }).click();
    await row.getByText('court seizure order 2026/7').waitFor();
    await eventually(
      'frozen on chain',
      async () => (await gw.em().findOneOrFail(WalletFreeze, { investorId: m.investor.id })).status === WalletFreezeStatus.frozen,
    );
    const chain = chainClients((await workerChain()).rpcUrl);
    await expect(chain.read<boolean>(m.token.contractAddress, TOKEN_ABI, 'isFrozen', [wallet])).resolves.toBe(true);
    await page.reload();
    await ui.heading(m.investor.id);
    await row.getByText('frozen', { exact: true }).waitFor();
    await expect(row.getByRole('button', { name: 'Freeze…' }).count()).resolves.toBe(0);
    await screenshot(page, 'wallet-frozen', { fullPage: true });
    await ui.expectAccessible('investor page, wallet frozen');

    // A viewer sees the freeze and no action on it.
    const viewer = await newPage(browser);
    viewer.setDefaultTimeout(10_000);
    await viewer.goto(consoleUrl(gw, `#token=${await gw.opsTokenAs('a-viewer', ['viewer'])}`));
    await viewer.getByText('Signed in as').waitFor();
    await viewer.goto(consoleUrl(gw, `#/investors/${m.investor.id}`));
    await viewer.getByText('court seizure order 2026/7').waitFor();
    await expect(viewer.getByRole('button', { name: /unfreeze|Freeze/ }).count()).resolves.toBe(0);
    await viewer.close();

    // The operator asks for the unfreeze: a request, nothing unfrozen yet.
    await row.getByRole('button', { name: `Request unfreeze of ${m.shareClass.id}…` }).click();
    const ask = page.getByRole('dialog', { name: `Request to unfreeze ${wallet} on ${m.shareClass.meta.name}?` });
    await ask.getByLabel(/^Reason/).fill('cleared by compliance');
    await ask.getByRole('button', { name: `Request unfreeze of ${m.shareClass.id}…` }).click();
    await ask.waitFor({ state: 'hidden' });
    await page.goto(consoleUrl(gw, '#/approvals'));
    const mine = ui.panel('Awaiting a decision').getByRole('row').filter({ hasText: wallet.toLowerCase() });
    await mine.getByText('Wallet unfreeze').waitFor();
    await mine.getByText('Your request: another person decides.').waitFor();
    await expect(chain.read<boolean>(m.token.contractAddress, TOKEN_ABI, 'isFrozen', [wallet])).resolves.toBe(true);
  });
});
