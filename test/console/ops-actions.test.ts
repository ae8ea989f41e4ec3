import type { Browser, Page } from 'playwright-core';
import { aDistributor, aGrant, aHolding, anInvestor, aShareClass } from '../support/factories';
import { newPage, screenshot } from '../support/browser';
import { consolePage, consoleUrl, signedInConsole } from '../support/console-page';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { asOps } from '../support/ops.factories';

/*
 * The ops actions that had no screen (issue 47.3), in headless Chromium: a holding adjustment and
 * a forced transfer requested from the share class's page (each waits in Approvals for a second
 * principal), a blank reason refused beside its field, the income policy set where distributions
 * are and read on the class's page, and a viewer offered none of it.
 */
describe('Ops console: register corrections and the income policy (browser)', () => {
  let gw: TestGateway;
  let browser: Browser;
  let page: Page;
  let ui: ReturnType<typeof consolePage>;
  let shareClassId: string;
  let other: string;

  beforeAll(async () => {
    gw = await startTestGateway({ background: true, events: { pollMs: 50 } });
    await gw.reset();
    const em = gw.em();
    const shareClass = await aShareClass(em, { currency: 'EUR', meta: { name: 'Actions Class', manager: 'M' } });
    shareClassId = shareClass.id;
    const distributor = await aDistributor(em, [], { name: 'Actions Distributor' });
    await aGrant(em, distributor, shareClass);
    const a = await anInvestor(em, distributor, { grants: [shareClass], over: { name: 'Ada Holder', externalInvestorId: 'ext-a', email: 'ada@example.com' } });
    const b = await anInvestor(em, distributor, { grants: [shareClass], over: { externalInvestorId: 'ext-b', email: 'bob@example.com' } });

    other = b.id;
    await aHolding(em, a, shareClass, '100');
    ({ browser, page, ui } = await signedInConsole(gw));
  });

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  const requests = async () =>
    (await asOps(gw, `{ approvalRequests(status: requested) { kind arguments } }`)).approvalRequests as { kind: string; arguments: Record<string, unknown> }[];

  it('requests a holding adjustment from the share class page: a blank reason refused beside its field, then one request in Approvals', async () => {
    await page.goto(consoleUrl(gw, `#/share-classes/${shareClassId}`));
    await ui.heading('Actions Class');
    const panel = ui.panel('Register corrections');
    const form = panel.getByRole('form', { name: 'Request adjustment' });
    await form.getByLabel(/^Investor/).fill(other);
    await form.getByLabel(/^Tokens/).fill('5');
    await form.getByRole('button', { name: 'Request adjustment' }).click();
    // the refusal marks the field (waited for: the label's own text says "Reason" before any refusal)
    await form
      .getByLabel(/^Reason/)
      .and(form.locator('[aria-invalid="true"]'))
      .waitFor();
    await expect(form.getByLabel(/^Reason/).getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(requests()).resolves.toEqual([]);
    await form.getByLabel(/^Reason/).fill('transfer in from the previous register');
    await form.getByRole('button', { name: 'Request adjustment' }).click();
    await panel.getByRole('status').filter({ hasText: 'waits in Approvals' }).waitFor();
    await expect(form.getByRole('alert').count()).resolves.toBe(0);
    await expect(requests()).resolves.toEqual([
      {
        kind: 'holding_adjustment',
        arguments: expect.objectContaining({ investorId: other, shareClassId, quantity: '5', reason: 'transfer in from the previous register' }),
      },
    ]);
    await ui.expectAccessible('share class with register corrections');
  });

  it('says before any submission that a forced transfer needs a token chain the gateway writes to', async () => {
    // this gateway writes to no chain (the chain tests request one on the worker's anvil)
    await ui.panel('Register corrections').getByText("The gateway writes to none of this class's token chains (11155111)").waitFor();
    await expect(page.getByRole('form', { name: 'Request forced transfer' }).count()).resolves.toBe(0);
    await screenshot(page, 'register-corrections', { fullPage: true });
    await page.getByRole('link', { name: 'Approvals', exact: true }).first().click();
    await ui.heading('Approvals');
    await page.getByRole('cell', { name: 'Holding adjustment', exact: true }).first().waitFor();
  });

  it('sets the income policy on the Distributions page, the one the share class page shows; the share class form offers no free-text policy', async () => {
    await page.goto(consoleUrl(gw, `#/distributions/${shareClassId}`));
    await ui.heading('Distributions');
    await page.getByLabel('Income policy', { exact: true }).selectOption('distributing/cash');
    await page.getByRole('button', { name: 'Save income policy' }).click();
    // saved: the button waits again until another policy is chosen
    await page.getByRole('button', { name: 'Save income policy', disabled: true }).waitFor();
    const policy = async () =>
      (await asOps(gw, `query($id: ID!) { distributionPolicy(shareClassId: $id) { treatment payment } }`, { id: shareClassId })).distributionPolicy;
    await expect(policy()).resolves.toEqual({ treatment: 'distributing', payment: 'cash' });
    await ui.expectAccessible('distributions with the income policy');
    await page.goto(consoleUrl(gw, `#/share-classes/${shareClassId}`));
    await page.getByText('Distributing, in cash: owed to the holder’s distributor').waitFor();
    await page.goto(consoleUrl(gw, `#/share-classes/${shareClassId}/edit`));
    await page.getByLabel(/^Eligible investors/).waitFor();
    await expect(page.getByLabel(/Distribution policy/).count()).resolves.toBe(0);
  });

  it('a viewer reads the policy and is offered no request', async () => {
    const viewer = await newPage(browser);
    await viewer.goto(consoleUrl(gw, `#token=${await gw.opsTokenAs('actions-viewer', ['viewer'])}`));
    await viewer.getByText('Signed in as').waitFor();
    await viewer.goto(consoleUrl(gw, `#/share-classes/${shareClassId}`));
    await consolePage(viewer).heading('Actions Class');
    await viewer.getByText('Distributing, in cash').first().waitFor();
    await expect(viewer.getByRole('heading', { name: 'Register corrections' }).count()).resolves.toBe(0);
    await viewer.goto(consoleUrl(gw, `#/distributions/${shareClassId}`));
    await viewer.getByText('Income policy:').waitFor();
    await expect(viewer.getByRole('button', { name: 'Save income policy' }).count()).resolves.toBe(0);
    await viewer.context().close();
  });
});
