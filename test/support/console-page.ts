import type { Page } from 'playwright-core';
import { seriousA11yViolations } from './browser';

/** What the console's browser tests ask of a page, in the words of its screens. */
export function consolePage(page: Page) {
  return {
    /** Waits for the screen whose title holds `text`. */
    heading: (text: string | RegExp) => page.getByRole('heading', { level: 1 }).filter({ hasText: text }).waitFor(),
    /** The panel titled `title`. */
    panel: (title: string) => page.locator('section.panel').filter({ has: page.getByRole('heading', { level: 2, name: title, exact: true }) }),
    /** A form field by its label, whose required mark (` *`) some labels carry. */
    field: (label: string) => page.getByLabel(new RegExp(`^${label.replace(/[()/]/g, '\\$&')}( \\*)?$`)),
    checklistItem: (key: string) => page.locator(`.checklist li[data-key="${key}"]`),
    /** Waits until the checklist (read again by the gateway after a change) shows the item done. */
    checklistDone: (key: string) => page.locator(`.checklist li[data-key="${key}"][data-done="true"]`).waitFor(),
    /** The id of the record whose page just opened. */
    async idFromHash(section: string): Promise<string> {
      const route = new RegExp(`#/${section}/([A-Z]{2}\\d{6})$`);
      await page.waitForURL(route);
      return route.exec(page.url())![1]!;
    },
    async expectAccessible(screen: string): Promise<void> {
      const violations = await seriousA11yViolations(page);
      expect({ screen, violations }).toEqual({ screen, violations: [] });
    },
    /** A `datetime-local` value for an instant, in the browser's own zone. */
    localInput: (iso: string) => page.evaluate((ms) => new Date(ms - new Date(ms).getTimezoneOffset() * 60_000).toISOString().slice(0, 16), Date.parse(iso)),
  };
}
