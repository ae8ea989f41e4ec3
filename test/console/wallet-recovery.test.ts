import type { Browser, Page } from 'playwright-core';
import { IDENTITY_REGISTRY_ABI, TOKEN_ABI } from '../../src/modules/chain/contracts';
import { screenshot } from '../support/browser';
import { chainClients, randomWallet, testChains, workerChain } from '../support/chain';
import { aChainMarket, aWhitelistedWallet, behindTheGateway, finalOrder, opsCall } from '../support/chain.factories';
import { consolePage, consoleUrl, signedInConsole } from '../support/console-page';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aOneStepOrder } from '../support/one-step.factories';

/*
 * An investor lost the key of its wallet, frozen since, which holds the tokens of a settled
 * order: the order's page names that wallet (taken from the investor's profile, not the order),
 * and ops recover it to a new wallet from the investor's page, which follows the new wallet until
 * the chain made it whitelisted. The market is arranged through the gateway on the worker's anvil.
 */
jest.setTimeout(240_000);

const CHAIN = '31337';

describe('Ops console: recovering a lost wallet (browser)', () => {
  let gw: TestGateway;
  let browser: Browser;
  let page: Page;
  let ui: ReturnType<typeof consolePage>;
  const url = (hash = '') => consoleUrl(gw, hash);

  beforeAll(async () => {
    gw = await startTestGateway({ chains: await testChains() });
    await gw.reset();
    ({ browser, page, ui } = await signedInConsole(gw));
  });

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  it("names a settled order's wallet, then recovers that wallet from the investor's page: the new one ends whitelisted, holding the tokens", async () => {
    // given an investor whose one-step order (no wallet of its own) settled 800 tokens to its profile's wallet, frozen since its key was lost
    const m = await aChainMarket(gw);
    const lost = randomWallet();
    await aWhitelistedWallet(gw, m.investor.id, lost);
    const order = await aOneStepOrder(gw, m, { amount: '1000', stage: 'accepted', chainId: CHAIN });
    await opsCall(gw, `mutation($id: ID!) { settleOneStepOrder(orderId: $id) { status } }`, { id: order.id });
    expect((await finalOrder(gw, order.id)).status).toBe('settled');
    const { rpcUrl } = await workerChain();
    await behindTheGateway(gw, rpcUrl, m.token.contractAddress, TOKEN_ABI, 'setAddressFrozen', [lost, true]);

    // the order's page names the wallet it settled to
    await page.goto(url(`#/orders/${order.id}`));
    await ui.heading(order.id);
    const facts = ui.panel('Order').locator('dl.facts > div').filter({ has: page.locator('dt', { hasText: /^Wallet$/ }) });
    await expect(facts.locator('dd').textContent()).resolves.toBe(lost);

    // when ops open the recovery of the lost wallet, and first type an address that is none
    await page.goto(url(`#/investors/${m.investor.id}`));
    await ui.heading(m.investor.id);
    const wallets = ui.panel('Wallets');
    const open = wallets.getByRole('row').filter({ has: page.getByRole('cell', { name: lost, exact: true }) }).getByRole('button', { name: 'Recover to a new wallet…' });
    await open.focus();
    await page.keyboard.press('Enter');
    await expect(open.getAttribute('aria-expanded')).resolves.toBe('true');
    const form = wallets.getByRole('form', { name: `Recover ${lost} to a new wallet` });
    const address = form.getByLabel(/^New wallet address/);
    await expect(page.locator(':focus').getAttribute('name')).resolves.toBe('newAddress');
    await page.keyboard.type('0x12');
    await form.getByLabel(/^Reason/).fill('key lost');
    await form.getByRole('button', { name: 'Recover', exact: true }).click();
    // then the gateway's refusal stands beside the field, with what was typed
    const refusal = 'New wallet address must be an EVM address (0x and 40 hex digits)';
    await form.locator('.field-error').filter({ hasText: refusal }).waitFor();
    await expect(address.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(form.getByLabel(/^Reason/).inputValue()).resolves.toBe('key lost');
    await ui.expectAccessible('wallet recovery, refused');

    // when the address is corrected, from the keyboard
    const fresh = randomWallet();
    await address.fill(fresh);
    await address.press('Enter');
    // then the page follows the new wallet until the chain whitelisted it
    await wallets.getByRole('status').filter({ hasText: `Recovered: ${fresh} is whitelisted and holds the tokens of ${lost}.` }).waitFor({ timeout: 120_000 });
    // A row by its address cell (the lost wallet's removal reason names the new one too).
    const row = (address: string) => wallets.getByRole('row').filter({ has: page.getByRole('cell', { name: address, exact: true }) });
    await expect(row(fresh).getByRole('cell').nth(2).textContent()).resolves.toMatch(/^whitelistedidentity 0x/);
    await expect(row(lost).getByRole('cell').nth(4).textContent()).resolves.toContain(`lost: recovered to ${fresh} (key lost)`);
    await expect(row(lost).getByRole('button', { name: 'Recover to a new wallet…' }).count()).resolves.toBe(0);
    // The row's button scrolled the table sideways when it took the focus: the picture shows it from its start.
    await wallets.locator('.table-wrap').evaluate((el: { scrollLeft: number }) => (el.scrollLeft = 0));
    await screenshot(page, 'wallet-recovery');
    await ui.expectAccessible('wallet recovered');

    // and on chain the tokens are on the new wallet, registered and not frozen
    const chain = chainClients(rpcUrl);
    expect(await chain.balanceOf(m.token.contractAddress, lost)).toBe(0n);
    expect(await chain.balanceOf(m.token.contractAddress, fresh)).toBe(800_000_000n);
    expect(await chain.read<boolean>(m.token.contractAddress, TOKEN_ABI, 'isFrozen', [fresh])).toBe(false);
    expect(await chain.read<boolean>(m.token.identityRegistry, IDENTITY_REGISTRY_ABI, 'isVerified', [fresh])).toBe(true);
  });
});
