import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, seriousA11yViolations } from './browser';
import type { TestGateway } from './gateway';

/** What the console's browser tests ask of a page, in the words of its screens. */
export function consolePage(page: Page) {
  const field = (label: string) => page.getByLabel(new RegExp(`^${label.replace(/[()/]/g, '\\$&')}( \\*)?$`));
  return {
    /** Waits for the screen whose title holds `text`. */
    heading: (text: string | RegExp) => page.getByRole('heading', { level: 1 }).filter({ hasText: text }).waitFor(),
    /** The panel titled `title`. */
    panel: (title: string) => page.locator('section.panel').filter({ has: page.getByRole('heading', { level: 2, name: title, exact: true }) }),
    /** A form field by its label, whose required mark (` *`) some labels carry. */
    field,
    /** Types `value` into the field labelled `label`, or chooses it where the field is a list. */
    async set(label: string, value: string): Promise<void> {
      const f = field(label);
      if ((await f.evaluate((e) => e.tagName)) === 'SELECT') await f.selectOption(value);
      else await f.fill(value);
    },
    checklistItem: (key: string) => page.locator(`.checklist li[data-key="${key}"]`),
    /** Waits until the checklist (read again by the gateway after a change) shows the item done. */
    checklistDone: (key: string) => page.locator(`.checklist li[data-key="${key}"][data-done="true"]`).waitFor(),
    /** The id of the record whose page just opened. */
    async idFromHash(section: string): Promise<string> {
      const route = new RegExp(`#/${section}/([A-Z]{2}\\d{6})$`);
      await page.waitForURL(route);
      return route.exec(page.url())![1];
    },
    async expectAccessible(screen: string): Promise<void> {
      const violations = await seriousA11yViolations(page);
      expect({ screen, violations }).toEqual({ screen, violations: [] });
    },
  };
}

/** Where a test gateway serves its console, at the given `#…` route. */
export const consoleUrl = (gw: Pick<TestGateway, 'port'>, hash = '') => `http://127.0.0.1:${gw.port}/console/${hash}`;

/** A fresh browser on a test gateway's console, signed in as ops: where every console test starts. */
export async function signedInConsole(
  gw: Pick<TestGateway, 'port' | 'opsToken'>,
): Promise<{ browser: Browser; page: Page; ui: ReturnType<typeof consolePage> }> {
  const browser = await launchBrowser();
  const page = await newPage(browser);
  page.setDefaultTimeout(10_000);
  await page.goto(consoleUrl(gw, `#token=${await gw.opsToken()}`));
  await page.getByText('Signed in as').waitFor();
  return { browser, page, ui: consolePage(page) };
}
