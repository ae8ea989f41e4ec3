import type { Browser, Page } from 'playwright-core';
import { runInScope } from '../../src/common/request-scope';
import { bookOpening } from '../../src/modules/holding/holding-ledger';
import { newPage, screenshot } from '../support/browser';
import { consolePage, consoleUrl, signedInConsole } from '../support/console-page';
import { aDistributor, aGrant, anInvestor, aNav, aShareClass } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aOneStepOrder } from '../support/one-step.factories';
import { asOps } from '../support/ops.factories';

const HOUR = 3_600_000;

/*
 * The desk's home screen: the book as pictures, each with the table of its figures, which is what
 * a screen reader reads. A real headless Chromium on a test gateway.
 */
describe('Ops console: the book (browser)', () => {
  let gw: TestGateway;
  let browser: Browser;
  let page: Page;
  let ui: ReturnType<typeof consolePage>;
  let orderId: string;
  const rows = (table: string) =>
    page
      .getByRole('table', { name: table, exact: true })
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));

  beforeAll(async () => {
    gw = await startTestGateway({ background: true, events: { pollMs: 50 } });
    await gw.reset();
    const em = gw.em();
    const now = Date.now();
    const shareClass = await aShareClass(em, { currency: 'EUR', meta: { name: 'Book Class EUR', manager: 'Book Manager' } });
    const distributor = await aDistributor(em, [], { name: 'Book Distributor' });
    await aGrant(em, distributor, shareClass);
    const investor = await anInvestor(em, distributor, { grants: [shareClass] });
    // 100 tokens in the register from two days ago, a NAV before them and one after
    await runInScope({ actor: 'factory' }, () =>
      gw.em().transactional((tem) =>
        bookOpening(tem, {
          investorId: investor.id,
          shareClassId: shareClass.id,
          quantity: '100',
          settledAt: new Date(now - 48 * HOUR),
          at: new Date(now - 48 * HOUR),
        }),
      ),
    );
    await aNav(em, shareClass, '10', new Date(now - 72 * HOUR));
    await aNav(em, shareClass, '10.5', new Date(now - 24 * HOUR));
    orderId = (await aOneStepOrder(gw, { distributor, investor, shareClass }, { amount: '2500' })).id;
    ({ browser, page, ui } = await signedInConsole(gw));
  });

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  it('answers the book in exact figures: tokens × NAV at each NAV, flows per dealing date, orders waiting per state', async () => {
    const { book } = await asOps(
      gw,
      `{ book { aum { shareClassName nav tokens aum currency } dealingFlows { currency subscriptions subscribedAmount redemptions redeemedTokens } waiting { flow status count } chain { shareClassName registerTotal status } } }`,
    );
    expect(book.aum).toEqual([
      { shareClassName: 'Book Class EUR', nav: '10', tokens: '0', aum: '0', currency: 'EUR' },
      { shareClassName: 'Book Class EUR', nav: '10.5', tokens: '100', aum: '1050', currency: 'EUR' },
    ]);
    expect(book.dealingFlows).toEqual([{ currency: 'EUR', subscriptions: 1, subscribedAmount: '2500', redemptions: 0, redeemedTokens: '0' }]);
    expect(book.waiting).toEqual([
      { flow: 'two_step', status: 'created', count: 0 },
      { flow: 'two_step', status: 'submitted', count: 0 },
      { flow: 'two_step', status: 'accepted', count: 0 },
      { flow: 'one_step', status: 'pending', count: 1 },
      { flow: 'one_step', status: 'accepted', count: 0 },
    ]);
    expect(book.chain).toEqual([{ shareClassName: 'Book Class EUR', registerTotal: '100', status: 'in step' }]);
  });

  it('is the home screen: every chart has its table, the tables hold the figures, no accessibility violation', async () => {
    await page.goto(consoleUrl(gw, '#/book'));
    await ui.heading('The book');
    await page.getByRole('table', { name: 'Assets under management', exact: true }).waitFor();
    // every chart canvas is hidden from assistive technology; its figure holds a table
    for (const figure of await page.locator('figure.chart').all()) {
      await expect(figure.locator('.chart-canvas').getAttribute('aria-hidden')).resolves.toBe('true');
      await expect(figure.locator('table.grid').count()).resolves.toBe(1);
    }
    const aum = await rows('Assets under management');
    expect(aum.map(([name, , nav, tokens, value]) => [name, nav, tokens, value])).toEqual([
      ['Book Class EUR', '10', '0', '0 EUR'],
      ['Book Class EUR', '10.5', '100', '1,050 EUR'],
    ]);
    const flows = await rows('Subscriptions and redemptions per dealing date');
    expect(flows.map(([, currency, ...rest]) => [currency, ...rest])).toEqual([['EUR', '1', '2,500', '0', '0']]);
    await expect(rows('Orders waiting, per state')).resolves.toContainEqual(['One-step', 'pending', '1']);
    await expect(rows('Register and chain')).resolves.toEqual([['Book Class EUR', 'in step', expect.stringMatching(/^0x.*… on 11155111$/), '100', '0', '0']]);
    await expect(page.getByRole('table', { name: 'Next cut-offs', exact: true }).getByRole('row').filter({ hasText: 'Book Class EUR' }).count()).resolves.toBe(
      1,
    );
    // The charts read: amounts not counts, every axis from zero, each legend with its latest figure, nothing wider than the page.
    const legends = await page
      .locator('figure.chart')
      .evaluateAll((figs) =>
        figs.map((f) =>
          [...f.querySelectorAll('.u-legend .u-series')].map(
            (tr) => `${tr.querySelector('.u-label')?.textContent}: ${tr.querySelector('.u-value')?.textContent}`,
          ),
        ),
      );
    expect(legends).toEqual([
      ['At: latest', 'Book Class EUR (EUR): 1,050'],
      ['Dealt: all', 'Subscribed (EUR): 2,500', 'Redeemed (tokens): 0'],
      ['Dealt: all', 'Orders: 1'],
    ]);
    await expect(page.locator('.chart-canvas').evaluateAll((els) => els.map((e) => e.getAttribute('data-y-min')))).resolves.toEqual(['0', '0', '0']);
    await expect(page.locator('figure.chart').evaluateAll((figs) => figs.filter((f) => f.scrollWidth > f.clientWidth).length)).resolves.toBe(0);
    await screenshot(page, 'book', { fullPage: true });
    await ui.expectAccessible('the book');
  });

  it('a viewer sees the book and the records, and no action its roles do not allow', async () => {
    const viewer = await newPage(browser);
    await viewer.goto(consoleUrl(gw, `#token=${await gw.opsTokenAs('night-viewer', ['viewer'])}`));
    await viewer.getByText('Signed in as').waitFor();
    const screen = consolePage(viewer);
    // the issuers list without its create form, an order without accept or reject
    await viewer.goto(consoleUrl(gw, '#/issuers'));
    await screen.heading('Issuers');
    await viewer.getByRole('table').first().waitFor();
    await expect(viewer.getByRole('button', { name: 'Create issuer' }).count()).resolves.toBe(0);
    await viewer.goto(consoleUrl(gw, `#/orders/${orderId}`));
    await screen.heading(orderId);
    await viewer.getByText('pending').first().waitFor();
    for (const action of ['Accept', 'Reject']) await expect(viewer.getByRole('button', { name: action, exact: true }).count()).resolves.toBe(0);
    // the audit log, an approver's read, is not offered
    await expect(viewer.getByRole('link', { name: 'Audit log' }).count()).resolves.toBe(0);
    await viewer.context().close();
  });
});
