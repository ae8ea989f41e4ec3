import type { Browser, Page } from 'playwright-core';
import { consolePage, consoleUrl, signedInConsole } from '../support/console-page';
import { aMarket, anInvestor } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { InvestorCategory } from '../../src/modules/investor/investor-category';
import { WalletStatus } from '../../src/modules/investor/investor.entity';

/*
 * The investor's page at a wide desk screen (1,440 px): its name as the heading, its category and
 * KYC beside its record, its positions, orders, income and wallets.
 */
jest.setTimeout(120_000);

describe("Ops console: an investor's page (browser)", () => {
  let gw: TestGateway;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    gw = await startTestGateway();
    await gw.reset();
    ({ browser, page } = await signedInConsole(gw));
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  it('is headed by the name, shows category, KYC and every panel, at 1,440 px', async () => {
    // given an investor with a name, a category, a KYC and a wallet registered on chain
    const m = await aMarket(gw.em(), gw.clock.now());
    const investor = await anInvestor(gw.em(), m.distributor, {
      grants: [m.shareClass],
      walletChain: '31337',
      walletStatus: WalletStatus.whitelisted,
      over: {
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        category: InvestorCategory.professional,
        kycVerifiedAt: new Date('2026-01-05T10:00:00Z'),
        kycExpiresAt: new Date('2027-01-05T10:00:00Z'),
      },
    });
    await gw
      .em()
      .getConnection()
      .execute(`update investor_wallet set onchain_identity = '0x${'1'.repeat(40)}' where investor_id = ?`, [investor.id]);
    // when its page opens
    await page.goto(consoleUrl(gw, `#/investors/${investor.id}`));
    const ui = consolePage(page);
    await ui.heading('Ada Lovelace');
    // then the name, not the e-mail, heads it; category and KYC are read in their panel (test/console/eligibility.test.ts)
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(`Ada Lovelace ${investor.id}`);
    const facts = ui.panel('Category and KYC');
    await facts.getByText('professional').waitFor();
    await facts.getByText(/2027-01-05 \(UTC\)/).waitFor();
    for (const panel of ['Positions', 'Orders', 'Income', 'Wallets']) await ui.panel(panel).waitFor();
    // (the wallet's Request recovery… is still cut off at 1,440 px: issue 47, not fixed here)
    await page.getByRole('button', { name: /Request recovery/ }).waitFor();
    await ui.expectAccessible('investor');
  });
});
