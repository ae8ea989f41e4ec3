import type { Browser, Page } from 'playwright-core';
import { IDENTITY_REGISTRY_ABI, TOKEN_ABI } from '../../src/modules/chain/contracts';
import { screenshot } from '../support/browser';
import { chainClients, randomWallet, testChains, workerChain } from '../support/chain';
import { aChainMarket, aWhitelistedWallet, behindTheGateway, finalOrder, opsCall } from '../support/chain.factories';
import { consolePage, consoleUrl, signedInConsole } from '../support/console-page';
import { newPage } from '../support/browser';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aOneStepOrder } from '../support/one-step.factories';

/*
 * An investor lost the key of its wallet, frozen since, which holds the tokens of a settled
 * order: the order's page names that wallet (taken from the investor's profile, not the order),
 * and one ops principal requests its recovery to a new wallet from the investor's page; that
 * principal cannot approve its own request (no button; the gateway refuses it), a second one,
 * an approver, approves it from the Approvals inbox, and the investor's page then shows the new
 * wallet whitelisted. The market is arranged through the gateway on the worker's anvil.
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

  it("names a settled order's wallet; one principal requests its recovery, cannot approve it itself, a second approves it: the new wallet ends whitelisted, holding the tokens", async () => {
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
    const facts = ui
      .panel('Order')
      .locator('dl.facts > div')
      .filter({ has: page.locator('dt', { hasText: /^Wallet$/ }) });
    await expect(facts.locator('dd').textContent()).resolves.toBe(lost);

    // when ops open the recovery of the lost wallet, and first type an address that is none
    await page.goto(url(`#/investors/${m.investor.id}`));
    await ui.heading(m.investor.id);
    const wallets = ui.panel('Wallets');
    const open = wallets
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: lost, exact: true }) })
      .getByRole('button', { name: 'Request recovery to a new wallet…' });
    await open.focus();
    await page.keyboard.press('Enter');
    await expect(open.getAttribute('aria-expanded')).resolves.toBe('true');
    const form = wallets.getByRole('form', { name: `Recover ${lost} to a new wallet` });
    const address = form.getByLabel(/^New wallet address/);
    await expect(page.locator(':focus').getAttribute('name')).resolves.toBe('newAddress');
    await page.keyboard.type('0x12');
    await form.getByLabel(/^Reason/).fill('key lost');
    await form.getByRole('button', { name: 'Request recovery', exact: true }).click();
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
    // then it is a request, awaiting another person
    await wallets
      .getByRole('status')
      .filter({ hasText: `Recovery of ${lost} to ${fresh} requested` })
      .waitFor();

    // and its requester sees it in the inbox without an Approve button; the gateway refuses it too
    await page.goto(url('#/approvals'));
    await ui.heading('Approvals');
    const inbox = ui.panel('Awaiting a decision');
    const mine = inbox.getByRole('row').filter({ hasText: fresh });
    await mine.getByText('Your request: another person decides.').waitFor();
    await expect(mine.getByRole('button', { name: 'Approve' }).count()).resolves.toBe(0);
    const id = (await mine.getByRole('cell').first().textContent())!;
    const own = await gw.graphql(`mutation($id: ID!) { approveRequest(id: $id) { status } }`, { id }, { token: await gw.opsToken() });
    expect(own.body.errors![0]).toMatchObject({ message: 'a principal may not approve or reject its own request', extensions: { code: 'FORBIDDEN' } });

    // when a second principal, an approver, signs in and approves it with a reason
    const approverPage = await newPage(browser);
    approverPage.setDefaultTimeout(10_000);
    await approverPage.goto(url(`#token=${await gw.opsTokenAs('second-desk', ['approver'])}`));
    await approverPage.getByText('Signed in as').waitFor();
    await approverPage.goto(url('#/approvals'));
    const theirs = consolePage(approverPage).panel('Awaiting a decision').getByRole('row').filter({ hasText: fresh });
    await theirs.getByRole('button', { name: 'Approve' }).click();
    const dialog = approverPage.getByRole('dialog', { name: `Approve request ${id}` });
    await dialog.getByLabel(/^Reason/).fill('called the investor back');
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await approverPage
      .getByRole('status')
      .filter({ hasText: `Request ${id} executed.` })
      .waitFor();
    await screenshot(approverPage, 'approvals');

    // then the investor's page shows the new wallet whitelisted once the chain confirmed
    await page.goto(url(`#/investors/${m.investor.id}`));
    await ui.heading(m.investor.id);
    for (const deadline = Date.now() + 120_000; ;) {
      const text = await wallets
        .getByRole('row')
        .filter({ has: page.getByRole('cell', { name: fresh, exact: true }) })
        .first()
        .textContent()
        .catch(() => '');
      if (text?.includes('whitelisted')) break;
      if (Date.now() > deadline) throw new Error(`the new wallet is not whitelisted: ${text}`);
      await page.waitForTimeout(1000);
      await page.reload();
      await ui.heading(m.investor.id);
    }
    // A row by its address cell (the lost wallet's removal reason names the new one too).
    const row = (address: string) => wallets.getByRole('row').filter({ has: page.getByRole('cell', { name: address, exact: true }) });
    await expect(row(fresh).getByRole('cell').nth(2).textContent()).resolves.toMatch(/^whitelistedidentity 0x/);
    await expect(row(lost).getByRole('cell').nth(4).textContent()).resolves.toContain(`lost: recovered to ${fresh} (key lost)`);
    await expect(row(lost).getByRole('button', { name: 'Request recovery to a new wallet…' }).count()).resolves.toBe(0);
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
