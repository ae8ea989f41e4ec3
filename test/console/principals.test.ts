import type { Browser, Page } from 'playwright-core';
import { approverToken } from '../support/approval.factories';
import { launchBrowser, newPage, seriousA11yViolations } from '../support/browser';
import { consolePage, consoleUrl } from '../support/console-page';
import { startTestGateway, type TestGateway } from '../support/gateway';

/*
 * The Principals screen: the ops principals and their roles, who may do what (the duty matrix),
 * and, for an admin only, the four-eyes requests for a principal or a role change.
 */
jest.setTimeout(120_000);

describe('Ops console: principals (browser)', () => {
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

  async function signIn(token: string) {
    await page.goto(consoleUrl(gw, `#token=${token}`));
    await page.getByText('Signed in as').waitFor();
    await page.goto(consoleUrl(gw, '#/principals'));
  }

  it('lists the principals, and an admin requests a role change that shows in Approvals', async () => {
    // given an admin and an approver
    const approver = await approverToken(gw);
    await signIn(await gw.opsToken());
    const table = consolePage(page).panel('Principals');
    const row = table.getByRole('row').filter({ hasText: 'test-approver' });
    await row.waitFor();
    await table.getByRole('row').filter({ hasText: 'test-ops' }).waitFor();
    await page.getByRole('heading', { name: 'operator' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    // when the admin asks for a role change without a reason, it is refused in words
    await row.getByRole('button', { name: 'Request role change for test-approver' }).click();
    const form = page.getByRole('form', { name: 'Role change for test-approver' });
    await form.getByRole('checkbox', { name: 'operator' }).check();
    await form.getByRole('button', { name: 'Send request' }).click();
    await form.getByText('Give a reason').waitFor();

    // and with one, the request is made
    await form.getByLabel('Reason for test-approver').fill('covers the dealing desk this week');
    await form.getByRole('button', { name: 'Send request' }).click();
    await page.getByText('A role change for test-approver').waitFor();

    // then the approvals screen shows it as a request
    await signIn(approver);
    await page.goto(consoleUrl(gw, '#/approvals'));
    await consolePage(page).panel('Awaiting a decision').getByRole('row').filter({ hasText: 'covers the dealing desk this week' }).waitFor();
  });

  it('offers a non-admin no request buttons', async () => {
    await signIn(await approverToken(gw));
    await consolePage(page).panel('Principals').getByRole('row').filter({ hasText: 'test-approver' }).waitFor();
    await page.getByRole('heading', { name: 'admin' }).waitFor();
    expect(await page.getByRole('button', { name: /Request/ }).count()).toBe(0);
    expect(await page.getByRole('form', { name: 'Request a principal' }).count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
});
