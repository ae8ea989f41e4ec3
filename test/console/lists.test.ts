import type { Browser, Page } from 'playwright-core';
import type { Investor } from '../../src/modules/investor/investor.entity';
import { consolePage, consoleUrl, signedInConsole } from '../support/console-page';
import { aDistributor, anInvestor } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';

/*
 * The list screens of a kind of record (issuers, investors, distributors, share classes) are one
 * list: a page of records, newest first, the next page on demand below it, each id opening its
 * record. Shown here on the investors, the list with a search; records arranged by factories.
 */
describe('Ops console lists (browser)', () => {
  let gw: TestGateway;
  let browser: Browser;
  let page: Page;
  let ui: ReturnType<typeof consolePage>;
  const investors: Investor[] = [];
  /** One more than the investors list shows on a page. */
  const MANY = 101;

  const rows = () => page.getByRole('table', { name: 'Investors' }).locator('tbody tr');

  beforeAll(async () => {
    gw = await startTestGateway();
    await gw.reset();
    const em = gw.em();
    const distributor = await aDistributor(em, [], { name: 'List Bank AG' });
    for (let i = 0; i < MANY; i++)
      investors.push(await anInvestor(em, distributor, { walletChain: null, over: { email: `list-${i}@example.com`, externalInvestorId: `crm-list-${i}` } }));
    ({ browser, page, ui } = await signedInConsole(gw));
  });

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  it('shows a first page of investors, newest first, and the next page below it on demand', async () => {
    await page.goto(consoleUrl(gw, '#/investors'));
    await ui.heading('Investors');
    await page.getByRole('link', { name: investors[MANY - 1].id, exact: true }).waitFor();
    await expect(rows().count()).resolves.toBe(100);
    await expect(page.getByRole('link', { name: investors[0].id, exact: true }).count()).resolves.toBe(0);
    await ui.expectAccessible('investors, first page');

    await page.getByRole('button', { name: 'More investors' }).click();
    await page.getByRole('link', { name: investors[0].id, exact: true }).waitFor();
    await expect(rows().count()).resolves.toBe(MANY);
    await expect(page.getByRole('button', { name: 'More investors' }).count()).resolves.toBe(0);
  });

  it("names each investor's distributor, linked to its page, and opens an investor from its id", async () => {
    const first = rows().first();
    await first.getByRole('link', { name: 'List Bank AG' }).click();
    await ui.heading('List Bank AG');
    await page.goBack();
    await page.getByRole('link', { name: investors[MANY - 1].id, exact: true }).click();
    await ui.heading(investors[MANY - 1].id);
  });

  it('searches by external id, and says so when no investor matches', async () => {
    await page.goto(consoleUrl(gw, '#/investors'));
    await page.getByLabel('E-mail or external id').fill('crm-list-7');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: investors[7].id, exact: true }).waitFor();
    await expect(rows().count()).resolves.toBe(1);
    await expect(page.getByRole('button', { name: 'More investors' }).count()).resolves.toBe(0);

    await page.getByLabel('E-mail or external id').fill('nobody@example.com');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('No investor matches.').waitFor();
  });
});
