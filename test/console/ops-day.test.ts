import type { Browser, Page } from 'playwright-core';
import { DEMO_PROVIDER, seedDemo } from '../../src/boot/seed';
import { seedDemoOrders } from '../../src/boot/demo-orders';
import { seedDemoBook } from '../../src/boot/demo-book';
import { issueDemoAccess } from '../../src/boot/demo-access';
import { bringDemoOnChain } from '../../src/modules/settlement/demo-onchain';
import { statusesOf } from '../../src/modules/order/order-states';
import { OrderFlow } from '../../src/modules/order/order.entity';
import { Dec } from '../../src/common/money';
import { ShareClass } from '../../src/modules/share-class/share-class.entity';
import type { SupplySimulator } from '../../src/supply/simulator';
import { launchBrowser, newPage } from '../support/browser';
import { testChains } from '../support/chain';
import { consolePage, consoleUrl } from '../support/console-page';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aSimulator, providersFor } from '../support/order.factories';

/*
 * A new ops person's day on the demo a first `npm start` seeds (issue 47, "Done when"), in
 * headless Chromium, from the start banner's console link and by clicks alone (no GraphQL):
 * Today → accept an order → publish a NAV → settle its dealing date → approve (as the demo's
 * approver) → positions → income. Seeded as main.ts seeds it: the book on a chainless gateway,
 * then the token deployed on the worker's chain, then the blotter's orders.
 */
describe("Ops console: a new ops person's day on the demo (browser)", () => {
  let gw: TestGateway;
  let sim: SupplySimulator;
  let browser: Browser;
  let page: Page;
  let ui: ReturnType<typeof consolePage>;
  let access: { opsToken: string; approverToken: string };
  let demo: { shareClassIds: string[] };
  let pendingId: string;

  beforeAll(async () => {
    sim = await aSimulator(DEMO_PROVIDER);
    gw = await startTestGateway({ supply: providersFor(sim), chains: await testChains(), background: true, events: { pollMs: 50 } });
    await gw.reset();
    const seeded = await seedDemo(gw.em(), gw.clock.now());
    demo = seeded;
    await seedDemoBook({ env: 'test', bodyLimit: '100kb' }, gw.db.orm, gw.clock, seeded);
    const s = gw.gateway.services;
    await bringDemoOnChain(gw.em(), s.chain!, s.tokenLedger!, s.walletOnChain!, '31337');
    for (const sc of await gw.em().find(ShareClass, {})) sim.addFund(sc.fund.id);
    const placed = await seedDemoOrders(gw.db.orm.em.fork(), s, seeded);
    pendingId = placed.one_step[statusesOf(OrderFlow.one_step).indexOf('pending')];
    access = await issueDemoAccess(gw.em(), s);
    browser = await launchBrowser();
    page = await newPage(browser);
    page.setDefaultTimeout(15_000);
    ui = consolePage(page);
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
    await sim?.stop();
  });

  it('opens on Today from the banner link, with orders to accept and approvals waiting', async () => {
    await page.goto(consoleUrl(gw, `#token=${access.opsToken}`));
    await ui.heading('Today');
    await page.getByRole('table', { name: 'Orders to accept', exact: true }).getByRole('link', { name: pendingId }).waitFor();
    await page.getByRole('table', { name: 'Approvals waiting', exact: true }).getByRole('link').first().waitFor();
    await ui.expectAccessible('today on the demo');
  });

  it('accepts the pending subscription from Today', async () => {
    await page.getByRole('table', { name: 'Orders to accept', exact: true }).getByRole('link', { name: pendingId }).click();
    await ui.heading(pendingId);
    await page.getByRole('button', { name: 'Accept', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Accept ${pendingId}?` });
    await dialog.getByRole('button', { name: 'Accept' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page
      .locator('.page-head .status')
      .filter({ hasText: /^accepted$/ })
      .waitFor();
  });

  it("publishes the USD class's NAV and settles the order's dealing date on chain", async () => {
    const usd = demo.shareClassIds[0];
    const dealingDate = (await page
      .locator('dd, td')
      .filter({ hasText: /^\d{4}-\d{2}-\d{2}$/ })
      .first()
      .textContent())!;
    await page.getByRole('link', { name: 'Share classes', exact: true }).click();
    await page.getByRole('link', { name: usd }).click();
    await ui.heading(usd);
    const live = await gw.gateway.services.nav.latest({ em: gw.em() }, usd);
    const close = new Dec(live!.close).toFixed();
    await page.getByLabel('Close (USD)').fill(close);
    await page.getByRole('button', { name: 'Publish NAV' }).click();
    await page.getByText(`NAV ${close} USD published.`).waitFor();
    const panel = ui.panel('Dealing-date settlement');
    await panel.getByLabel('Dealing date').fill(dealingDate);
    await panel.getByRole('button', { name: 'Preview settlement' }).click();
    await panel
      .getByRole('region', { name: 'Settlement preview' })
      .getByRole('table', { name: 'Orders of the dealing date' })
      .locator('tbody tr')
      .first()
      .waitFor();
    await panel.getByRole('button', { name: 'Settle dealing date' }).click();
    const dialog = page.getByRole('dialog', { name: `Settle ${dealingDate}?` });
    await dialog.getByRole('button', { name: 'Settle', exact: true }).click();
    await panel
      .getByRole('region', { name: 'Settlement outcome' })
      .getByRole('status')
      .filter({ hasText: `Dealing date ${dealingDate}:` })
      .waitFor();
    await ui.expectAccessible('dealing-date settlement on the demo');
  });

  it("approves, as the demo's approver, the category upgrade the admin asked for", async () => {
    const approver = await newPage(browser);
    approver.setDefaultTimeout(15_000);
    await approver.goto(consoleUrl(gw, `#token=${access.approverToken}`));
    await consolePage(approver).heading('Approvals');
    const row = consolePage(approver).panel('Awaiting a decision').getByRole('row').filter({ hasText: 'professional' });
    const id = (await row.getByRole('cell').first().textContent())!;
    await row.getByRole('button', { name: 'Approve' }).click();
    const dialog = approver.getByRole('dialog', { name: `Approve request ${id}` });
    await dialog.getByLabel(/^Reason/).fill('evidence checked');
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await approver
      .getByRole('status')
      .filter({ hasText: `Request ${id} executed.` })
      .waitFor();
    await consolePage(approver).expectAccessible('approvals on the demo');
    await approver.context().close();
  });

  it("shows the USD class's positions, then the EUR class's paid distribution", async () => {
    const usd = demo.shareClassIds[0];
    await page.getByRole('link', { name: 'Share classes', exact: true }).click();
    await page.getByRole('link', { name: usd }).click();
    await ui.heading(usd);
    await ui.panel('Positions').getByText('Grace Hopper').waitFor();
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Distributions' }).click();
    await ui.heading('Distributions');
    await ui.set('Share class', demo.shareClassIds[1]);
    await page.getByRole('table', { name: 'Distributions' }).getByText('paid').first().waitFor();
    await ui.expectAccessible('income on the demo');
  });
});
