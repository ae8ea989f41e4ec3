import type { Browser, Page } from 'playwright-core';
import { createWalletClient, encodeFunctionData, http, type Hex } from 'viem';
import { ChainMovement } from '../../src/modules/chain/chain-movement.entity';
import { TOKEN_ABI } from '../../src/modules/chain/contracts';
import { screenshot } from '../support/browser';
import { chainClients, eventually, randomWallet, testChains, workerChain } from '../support/chain';
import { aChainMarket, aWhitelistedWallet } from '../support/chain.factories';
import { consolePage, consoleUrl, signedInConsole } from '../support/console-page';
import { aDealingDateNav, aShareClass } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aOneStepOrder } from '../support/one-step.factories';
import { asOps } from '../support/ops.factories';

/*
 * The console's chain screens where the onboarding journey (onboarding-*.test.ts) does not go: a contract
 * registered rather than deployed, refused first for an address that is no ERC-3643 token; a
 * reconciliation that finds a difference — a mint made with the agent key behind the gateway's
 * back — with the movement that explains it; a dealing date whose one order fails its check on
 * chain (its wallet frozen after acceptance), with the reason. The market is arranged through the gateway
 * (aChainMarket deploys a suite on the worker's anvil); the page does the rest.
 */
jest.setTimeout(180_000);

const CHAIN = '31337';

describe('Ops console on chain (browser)', () => {
  let gw: TestGateway;
  let browser: Browser;
  let page: Page;
  let ui: ReturnType<typeof consolePage>;
  let m: Awaited<ReturnType<typeof aChainMarket>>;
  const wallet = randomWallet();
  const url = (hash = '') => consoleUrl(gw, hash);

  beforeAll(async () => {
    gw = await startTestGateway({ chains: await testChains() });
    await gw.reset();
    m = await aChainMarket(gw);
    await aWhitelistedWallet(gw, m.investor.id, wallet);
    ({ browser, page, ui } = await signedInConsole(gw));
  });

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  it('registers an existing contract, after the gateway refused one that is no ERC-3643 token and one it already knows', async () => {
    const other = await aShareClass(gw.em(), { chainId: '1' });
    await page.goto(url(`#/share-classes/${other.id}`));
    await ui.heading(other.id);
    const tokens = ui.panel('Tokens');
    const message = () => tokens.getByRole('alert').locator('.message').textContent();
    // A deployment offers the chains the gateway writes to: the worker's, chosen as the only one.
    const chain = tokens.getByLabel('Chain', { exact: true });
    await chain.locator(`option[value="${CHAIN}"]`).waitFor({ state: 'attached' });
    await expect(chain.locator('option').evaluateAll((os) => os.map((o) => [(o as unknown as { value: string }).value, o.textContent]))).resolves.toEqual([
      [CHAIN, `Anvil (${CHAIN})`],
    ]);
    await expect(chain.inputValue()).resolves.toBe(CHAIN);
    await tokens.getByLabel('New token').selectOption('register');
    // A registration, any configured chain (the only one chosen already) or another one typed in.
    await chain.locator(`option[value="${CHAIN}"]`).waitFor({ state: 'attached' });
    await expect(chain.locator('option').evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value))).resolves.toEqual([CHAIN, 'other']);
    await expect(chain.inputValue()).resolves.toBe(CHAIN);
    const notAToken = `0x${'00'.repeat(19)}01`;
    await tokens.getByLabel('Contract address').fill(notAToken);
    await chain.selectOption(CHAIN);
    await tokens.getByLabel('Token name').fill('Chain Fund A');
    await tokens.getByLabel('Symbol').fill('CFA');
    await tokens.getByRole('button', { name: 'Register token' }).click();
    // On a chain the gateway writes to, the contract is checked there.
    await expect(message()).resolves.toBe(`${notAToken} does not answer the ERC-3643 token interface (identityRegistry, compliance, decimals)`);
    await expect(tokens.getByLabel('Symbol').inputValue()).resolves.toBe('CFA');
    await ui.expectAccessible('token registration, refused');
    await tokens.getByLabel('Contract address').fill(m.token.contractAddress);
    await tokens.getByRole('button', { name: 'Register token' }).click();
    await expect(message()).resolves.toBe(`A token with contract ${m.token.contractAddress.toLowerCase()} on chain ${CHAIN} already exists`);

    // On a chain it only knows of, the contract is taken as given.
    const elsewhere = `0x${'ab'.repeat(20)}`;
    await tokens.getByLabel('Contract address').fill(elsewhere);
    await chain.selectOption('other');
    await tokens.getByLabel('Chain id').fill('8453');
    await tokens.getByRole('button', { name: 'Register token' }).click();
    const done = tokens.getByRole('status').filter({ hasText: 'registered at' });
    await done.waitFor();
    const { shareClass } = await asOps(
      gw,
      `query($id: ID!) { shareClass(id: $id) { tokens { id chainId contractAddress identityRegistry isPrimary createdBy } } }`,
      { id: other.id },
    );
    const registered = shareClass.tokens.find((t: { chainId: string }) => t.chainId === '8453');
    expect(registered).toEqual({
      id: expect.stringMatching(/^TK\d{6}$/),
      chainId: '8453',
      contractAddress: elsewhere,
      identityRegistry: null,
      isPrimary: false,
      createdBy: 'test-ops',
    });
    await expect(done.textContent()).resolves.toBe(`Token ${registered.id} registered at ${elsewhere}.`);
    await tokens.getByRole('table', { name: 'Tokens' }).getByRole('cell', { name: elsewhere, exact: true }).waitFor();
  });

  it("reconciles after a mint made behind the gateway's back: the holder differs by it, and the mint is the movement that explains it", async () => {
    const { rpcUrl } = await workerChain();
    const chain = chainClients(rpcUrl);
    const agent = gw.gateway.services.chain!.writable(CHAIN).account!;
    const hash = await createWalletClient({ account: agent, chain: chain.pub.chain, transport: http(rpcUrl) }).sendTransaction({
      to: m.token.contractAddress as Hex,
      data: encodeFunctionData({ abi: TOKEN_ABI, functionName: 'mint', args: [wallet, 42_000_000n] }),
    });
    expect((await chain.pub.waitForTransactionReceipt({ hash })).status).toBe('success');
    await eventually('the follower recorded the mint', async () => gw.em().findOne(ChainMovement, { transactionHash: hash.toLowerCase() }));

    await page.goto(url(`#/share-classes/${m.shareClass.id}`));
    await ui.heading(m.shareClass.id);
    const panel = ui.panel('Reconciliation with the chain');
    await panel.getByRole('button', { name: 'Reconcile now' }).click();
    const result = panel.getByRole('region', { name: 'Reconciliation result' });
    await result
      .getByRole('status')
      .filter({ hasText: /^At block \d+: 1 of 1 holder differs; total supply differs from the register by 42\.$/ })
      .waitFor();
    const rows = (name: string) =>
      result
        .getByRole('table', { name })
        .locator('tbody tr')
        .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    await expect(rows('Balances by wallet')).resolves.toEqual([[m.investor.id, wallet.toLowerCase(), '42', '0', '42']]);
    const movements = await rows(`Movements of ${m.investor.id}`);
    expect(movements).toEqual([
      [expect.stringMatching(/^\d+$/), 'issuance', '0x0000000000000000000000000000000000000000', m.investor.id, '42', `${hash.slice(0, 10)}…`],
    ]);
    await panel.scrollIntoViewIfNeeded();
    await screenshot(page, 'reconciliation-difference');
    await ui.expectAccessible('reconciliation with a difference');
  });

  it('settles a dealing date whose order fails its check on chain: the preview says why, and the order fails with that reason', async () => {
    const order = await aOneStepOrder(gw, m, { amount: '100', stage: 'accepted', chainId: CHAIN });
    const date = order.dealingDate!;
    await aDealingDateNav(gw.em(), m.shareClass, '2', date);
    // After acceptance, the issuer's agent freezes the wallet directly on chain.
    const { rpcUrl } = await workerChain();
    const chain = chainClients(rpcUrl);
    const agent = createWalletClient({ account: gw.gateway.services.chain!.writable(CHAIN).account!, chain: chain.pub.chain, transport: http(rpcUrl) });
    const freeze = await agent.sendTransaction({
      to: m.token.contractAddress as Hex,
      data: encodeFunctionData({ abi: TOKEN_ABI, functionName: 'setAddressFrozen', args: [wallet, true] }),
    });
    expect((await chain.pub.waitForTransactionReceipt({ hash: freeze })).status).toBe('success');

    await page.goto(url(`#/share-classes/${m.shareClass.id}`));
    await ui.heading(m.shareClass.id);
    const panel = ui.panel('Dealing-date settlement');
    await panel.getByLabel('Dealing date').fill(date);
    await panel.getByRole('button', { name: 'Preview settlement' }).click();
    const reason = `wallet ${wallet.toLowerCase()} is frozen`;
    const preview = panel.getByRole('region', { name: 'Settlement preview' }).getByRole('table', { name: 'Orders of the dealing date' }).locator('tbody tr');
    await preview.first().waitFor();
    await expect(preview.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)))).resolves.toEqual([
      [order.id, 'subscription', wallet.toLowerCase(), '50', '100', `fails: ${reason}`],
    ]);

    await panel.getByRole('button', { name: 'Settle dealing date' }).click();
    const dialog = page.getByRole('dialog', { name: `Settle ${date}?` });
    await expect(dialog.locator('.dialog-text').textContent()).resolves.toBe(
      `0 orders are minted or burned on chain ${CHAIN} at NAV 2; 1 fails with the reason shown. Orders already in a transaction are not sent again.`,
    );
    await dialog.getByRole('button', { name: 'Settle', exact: true }).click();
    const outcome = panel.getByRole('region', { name: 'Settlement outcome' });
    await outcome
      .getByRole('status')
      .filter({ hasText: `Dealing date ${date}: 0 settled, 1 failed.` })
      .waitFor();
    await expect(outcome.getByRole('list', { name: 'Settlement transactions' }).textContent()).resolves.toBe('No transaction: nothing to mint or burn.');
    await expect(
      outcome
        .getByRole('table', { name: 'Outcome by order' })
        .locator('tbody tr')
        .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent))),
    ).resolves.toEqual([[order.id, 'failed', reason]]);
    const { order: failed } = await asOps(gw, `query($id: ID!) { order(id: $id) { status failureReason } }`, { id: order.id });
    expect(failed).toEqual({ status: 'failed', failureReason: reason });
    await panel.scrollIntoViewIfNeeded();
    await screenshot(page, 'dealing-settlement-failed');
    await ui.expectAccessible('dealing-date settlement, an order failed');
  });
});
