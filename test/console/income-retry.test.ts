import type { Browser, Page } from 'playwright-core';
import { runInScope } from '../../src/common/request-scope';
import { Distribution, DistributionEntitlement } from '../../src/modules/distribution/distribution.entity';
import { bookOpening } from '../../src/modules/holding/holding-ledger';
import { aChainMarket, aWhitelistedWallet, opsCall } from '../support/chain.factories';
import { eventually, randomWallet, testChains, workerChain } from '../support/chain';
import { consoleUrl, signedInConsole } from '../support/console-page';
import { anInvestor } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aDeclaredReinvestment, holdersSinceOctober, manyWhitelistedHolders, PAY } from '../support/income.factories';

jest.setTimeout(240_000);

/*
 * A reinvestment's failed row in the console, in a real headless Chromium: ops see why it failed
 * beside it, fix the cause, and pay the failed rows again from the entitlements (docs/income.md,
 * "Paying the failed rows again").
 */
describe('Ops console: paying the failed rows of a distribution again (browser)', () => {
  let gw: TestGateway;
  let browser: Browser;
  let page: Page;
  const book = (investorId: string, shareClassId: string, quantity: string, at: Date) =>
    runInScope({ actor: 'factory' }, () => gw.em().transactional((em) => bookOpening(em, { investorId, shareClassId, quantity, settledAt: at, at })));

  beforeAll(async () => {
    gw = await startTestGateway({ chains: await testChains(), background: true });
    await gw.reset();
    ({ browser, page } = await signedInConsole(gw));
  });
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  it('pays the failed rows of a reinvestment again once the holder has a whitelisted wallet', async () => {
    // given a reinvestment paid to two holders, one of whom had no whitelisted wallet: that row failed
    const m = await aChainMarket(gw);
    const wallets = await manyWhitelistedHolders(gw, (await workerChain()).rpcUrl, m, 1);
    await holdersSinceOctober(gw, (await workerChain()).rpcUrl, m, wallets, '1000');
    const late = await anInvestor(gw.em(), m.distributor, { grants: [m.shareClass], walletChain: null });
    await book(late.id, m.shareClass.id, '1000', new Date('2026-10-01T10:00:00Z'));
    const id = await aDeclaredReinvestment(gw, m, '0.02');
    await opsCall(gw, PAY, { id });
    const lateRow = () => gw.em().fork().findOneOrFail(DistributionEntitlement, { distributionId: id, investorId: late.id });
    await eventually('the distribution final with the late row failed', async () =>
      (await gw.em().fork().findOneOrFail(Distribution, { id })).status === 'paid' && (await lateRow()).status === 'failed' ? true : undefined,
    );

    // when ops whitelist a wallet for the holder, open the entitlements and pay the failed rows again
    await aWhitelistedWallet(gw, late.id, randomWallet());
    await page.goto(consoleUrl(gw, `#/distributions/${m.shareClass.id}`));
    await page.getByRole('button', { name: `Entitlements of distribution ${id}` }).click();
    const entitlements = page.getByRole('table', { name: `Entitlements of distribution ${id}`, exact: true });
    await entitlements.getByText(`investor ${late.id} has no whitelisted wallet on chain 31337`).waitFor();
    await page.getByRole('button', { name: 'Pay the failed rows again' }).click();
    const dialog = page.getByRole('dialog', { name: `Pay the failed rows of ${id} again` });
    await dialog.getByText('1 row has failed.').waitFor();
    await dialog.getByRole('button', { name: 'Pay again' }).click();

    // then the row is sent again, the action is gone, and the holder is paid once
    await entitlements.getByText('sending').waitFor();
    expect(await page.getByRole('button', { name: 'Pay the failed rows again' }).count()).toBe(0);
    await eventually('the late row paid', async () => ((await lateRow()).status === 'paid' ? true : undefined), 120_000);
    expect(await lateRow()).toMatchObject({ tokens: '10', failureReason: null });
  });
});
