import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's chromium package (`.ci/run` installs it); Playwright's own browser downloads are not used. */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'];

/** Wide enough for the blotter at the laptop size the console is made for. */
export const VIEWPORT = { width: 1280, height: 800 };

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
}

/** A fresh page (its own sessionStorage) at the console's size. */
export async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  return context.newPage();
}

const AXE = require.resolve('axe-core/axe.min.js');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * Runs axe-core in the page (injected through the debugging protocol, so the page's CSP stays as
 * served) and returns the serious and critical violations, for WCAG 2.x A and AA rules.
 */
export async function seriousA11yViolations(page: Page): Promise<AxeViolation[]> {
  const source = readFileSync(AXE, 'utf8');
  await page.evaluate(source);
  const violations = await page.evaluate(async () => {
    const g = globalThis as unknown as { document: unknown };
    const axe = (
      globalThis as unknown as {
        axe: {
          run: (ctx: unknown, opts: unknown) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    const r = await axe.run(g.document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * With CONSOLE_SCREENSHOTS=1, writes the page as docs/console/<name>.png (the pictures docs/console.md
 * shows); otherwise does nothing.
 */
export async function screenshot(page: Page, name: string, opts: { fullPage?: boolean } = {}): Promise<void> {
  if (process.env.CONSOLE_SCREENSHOTS !== '1') return;
  const dir = join(__dirname, '..', '..', 'docs', 'console');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: opts.fullPage ?? false });
}
