import type { Browser, Page } from 'playwright-core';
import { aHolding, aMarket } from '../support/factories';
import { consoleUrl, signedInConsole } from '../support/console-page';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aOneStepOrder } from '../support/one-step.factories';

/*
 * No clipped control at 1,280 px and up (issue 47.4): every screen of the console, enumerated from
 * the navigation (each section) and from each section's first link to a record of it (the record
 * screens), at 1,280 and 1,440 px wide: no button, input, select or link lies outside the viewport
 * or is cut by an ancestor that clips its overflow, and the navigation is one line.
 */
jest.setTimeout(240_000);

describe('Ops console: nothing clipped at 1,280 px and up (browser)', () => {
  let gw: TestGateway;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    gw = await startTestGateway({ background: true, events: { pollMs: 50 } });
    await gw.reset();
    const m = await aMarket(gw.em(), gw.clock.now());
    await aHolding(gw.em(), m.investor, m.shareClass, '100');
    await aOneStepOrder(gw, m, { amount: '1000' });
    ({ browser, page } = await signedInConsole(gw));
  });

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  /** The screen at `hash`, once its title shows and nothing on it is still loading. */
  async function open(hash: string): Promise<void> {
    await page.goto(consoleUrl(gw, hash));
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    for (const deadline = Date.now() + 10_000; await loading();) {
      if (Date.now() > deadline) throw new Error(`${hash} is still loading`);
      await page.waitForTimeout(100);
    }
  }

  /** Every route: each section of the navigation, and the first record link each section lists. */
  async function routes(): Promise<string[]> {
    await open('#/today');
    const sections = await page.locator('nav[aria-label="Sections"] a').evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
    const all = new Set(sections);
    for (const section of sections) {
      await open(section);
      const records = await page.locator(`main a[href^="${section}/"]`).evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
      if (records[0]) all.add(records[0]);
    }
    return [...all];
  }

  /** In the page: whether a screen still says it is loading. */
  const loading = () =>
    page
      .locator('main')
      .evaluate((main) => Array.from<typeof main>(main.querySelectorAll('[role="status"]')).some((e) => /^Loading /.test(e.textContent ?? '')));

  /**
   * The visible controls outside the viewport, or outside an ancestor whose overflow is not visible,
   * described. `.skip` waits off screen until focused, by design.
   */
  const clipped = () =>
    page.locator('body').evaluate((body) => {
      const view = body.ownerDocument.defaultView!;
      const out: string[] = [];
      for (const el of Array.from<typeof body>(body.querySelectorAll('button:not(.skip), input, select, a[href], textarea'))) {
        const r = el.getBoundingClientRect();
        if (!el.getClientRects().length || r.width === 0 || r.height === 0 || el.closest('.sr-only, dialog:not([open])')) continue;
        const name = `${el.tagName.toLowerCase()} "${(el.textContent || el.getAttribute('aria-label') || el.getAttribute('name') || '').trim().slice(0, 40)}"`;
        if (r.left < -0.5 || r.right > view.innerWidth + 0.5) out.push(`${name} outside the viewport (${Math.round(r.left)}–${Math.round(r.right)})`);
        for (let a = el.parentElement; a; a = a.parentElement) {
          if (view.getComputedStyle(a).overflowX === 'visible') continue;
          const b = a.getBoundingClientRect();
          if (r.left < b.left - 0.5 || r.right > b.right + 0.5) out.push(`${name} cut by ${a.tagName.toLowerCase()}.${a.className}`);
        }
      }
      return out;
    });

  /** Whether every entry of the navigation sits on one line. */
  const navLines = () =>
    page.locator('nav[aria-label="Sections"] li').evaluateAll((lis) => new Set(lis.map((li) => Math.round(li.getBoundingClientRect().top))).size);

  it.each([1280, 1440])('at %i px: every screen keeps its controls whole and the navigation on one line', async (width) => {
    await page.setViewportSize({ width, height: 900 });
    const all = await routes();
    expect(all.length).toBeGreaterThan(10);
    const problems: Record<string, string[]> = {};
    for (const route of all) {
      await open(route);
      const found = await clipped();
      if ((await navLines()) !== 1) found.push('the navigation wraps');
      if (found.length) problems[route] = found;
    }
    expect(problems).toEqual({});
  });
});
