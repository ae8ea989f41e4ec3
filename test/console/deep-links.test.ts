import type { Browser, Page } from 'playwright-core';
import { consolePage, consoleUrl, signedInConsole } from '../support/console-page';
import { aMarket } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aOneStepOrder } from '../support/one-step.factories';

/*
 * A console URL opened in a new tab (Ctrl+click on an order, a link pasted into another tab) is
 * signed in by the session cookie the sign-in link's token was exchanged for, once: the tab shows
 * the order, never the sign-in form, and no web storage of the page holds a credential.
 */
jest.setTimeout(120_000);

describe('Ops console: deep links in a new tab (browser)', () => {
  let gw: TestGateway;
  let browser: Browser;
  let page: Page;
  let orderId: string;

  beforeAll(async () => {
    gw = await startTestGateway();
    await gw.reset();
    const m = await aMarket(gw.em(), gw.clock.now());
    orderId = (await aOneStepOrder(gw, m, { amount: '2500' })).id;
    ({ browser, page } = await signedInConsole(gw));
  });

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  it('keeps no token in web storage nor in a cookie a script can read', async () => {
    const kept = await page.evaluate(() => {
      const g = globalThis as unknown as { sessionStorage: object; localStorage: object; document: { cookie: string } };
      return JSON.stringify([{ ...g.sessionStorage }, { ...g.localStorage }, g.document.cookie]);
    });
    expect(kept).toBe('[{},{},""]');
    const [cookie] = await page.context().cookies();
    expect(cookie).toMatchObject({ name: 'ops_console', httpOnly: true, sameSite: 'Strict', path: '/' });
  });

  it("opens an order's URL in a new tab on the order, not the sign-in form", async () => {
    const tab = await page.context().newPage();
    await tab.goto(consoleUrl(gw, `#/orders/${orderId}`));
    await consolePage(tab).heading(orderId);
    await tab.getByText('Signed in as').waitFor();
    await expect(tab.getByLabel('Ops token').count()).resolves.toBe(0);
    await tab.close();
  });

  it('opens an order with Ctrl+click from the blotter in a new tab, signed in', async () => {
    await page.goto(consoleUrl(gw, '#/orders'));
    const link = page.getByRole('link', { name: orderId, exact: true });
    const [tab] = await Promise.all([page.context().waitForEvent('page'), link.click({ modifiers: ['ControlOrMeta'] })]);
    await consolePage(tab).heading(orderId);
    expect(tab.url()).toBe(consoleUrl(gw, `#/orders/${orderId}`));
    await tab.close();
  });

  it('signing out in one tab ends the session of the others, which show the sign-in form at their next load', async () => {
    const tab = await page.context().newPage();
    await tab.goto(consoleUrl(gw, `#/orders/${orderId}`));
    await consolePage(tab).heading(orderId);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Ops token').waitFor();
    await tab.goto(consoleUrl(gw, '#/orders'));
    await tab.reload();
    await tab.getByLabel('Ops token').waitFor();
    await expect(page.context().cookies()).resolves.toEqual([]);
    await tab.close();
  });
});
