import type { Browser, Page } from 'playwright-core';
import { approverToken, REQUEST_HOLDING_ADJUSTMENT } from '../support/approval.factories';
import { launchBrowser, newPage } from '../support/browser';
import { consolePage, consoleUrl } from '../support/console-page';
import { aHolding, aMarket } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';

/*
 * The approvals inbox follows the gateway over graphql-ws (approvalChanged): an approver has it
 * open, another principal requests an adjustment, and the request shows up without a reload;
 * when it is rejected elsewhere, it leaves the inbox the same way.
 */
jest.setTimeout(120_000);

describe('Ops console: the approvals inbox stays live (browser)', () => {
  let gw: TestGateway;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    gw = await startTestGateway({ background: true });
    await gw.reset();
    browser = await launchBrowser();
    page = await newPage(browser);
    page.setDefaultTimeout(15_000);
  });

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  it("shows another principal's request as it is made, and drops it as it is rejected, without a reload", async () => {
    // given an approver looking at an empty inbox
    const m = await aMarket(gw.em(), gw.clock.now());
    await aHolding(gw.em(), m.investor, m.shareClass, '100');
    await page.goto(consoleUrl(gw, `#token=${await approverToken(gw)}`));
    await page.getByText('Signed in as').waitFor();
    // An approver's link lands on the inbox, marked as the current section.
    await page.getByRole('heading', { level: 1, name: 'Approvals' }).waitFor();
    const menu = page.getByRole('navigation', { name: 'Sections' });
    await expect(menu.locator('[aria-current="page"]').textContent()).resolves.toBe('Approvals');
    await page.goto(consoleUrl(gw, '#/approvals'));
    const inbox = consolePage(page).panel('Awaiting a decision');
    await inbox.getByText('Nothing awaits a decision.').waitFor();
    let loads = 0;
    page.on('framenavigated', () => loads++);

    // when another principal requests a holding adjustment
    const input = { investorId: m.investor.id, shareClassId: m.shareClass.id, quantity: '25', reason: 'transfer in from the previous register' };
    const requested = await gw.graphql(REQUEST_HOLDING_ADJUSTMENT, { input }, { token: await gw.opsToken() });
    const id = (requested.body.data as { requestHoldingAdjustment: { id: string } }).requestHoldingAdjustment.id;

    // then the inbox shows it, with its reason, and the approver may decide it
    const row = inbox.getByRole('row').filter({ hasText: 'transfer in from the previous register' });
    await row.getByRole('button', { name: 'Approve' }).waitFor();
    await expect(row.getByRole('cell').first().textContent()).resolves.toBe(id);
    // and the menu counts it
    await menu.locator('.badge').filter({ hasText: '1 waiting' }).waitFor();

    // when it is rejected from elsewhere, it leaves the inbox
    await gw.graphql(`mutation($id: ID!) { rejectRequest(id: $id, reason: "not ours") { status } }`, { id }, { token: await approverToken(gw) });
    await inbox.getByText('Nothing awaits a decision.').waitFor();
    await menu.locator('.badge').waitFor({ state: 'detached' });
    expect(loads).toBe(0);
  });
});
