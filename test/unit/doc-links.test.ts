import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * Every relative link of the README and the manuals in docs/ leads somewhere in the repository:
 * the file or folder exists, it is inside the repository (never a path outside it), and a
 * `#fragment` into a Markdown file names one of its headings as GitHub renders them.
 */
const ROOT = resolve(__dirname, '..', '..');
const DOCS = join(ROOT, 'docs');
const pages = [
  join(ROOT, 'README.md'),
  ...readdirSync(DOCS)
    .filter((f) => f.endsWith('.md'))
    .map((f) => join(DOCS, f)),
];

/** The Markdown outside code: fenced blocks and inline code spans are not rendered as links. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** `[text](target)` and `![alt](target)`, the target without an optional "title". */
function linkTargets(markdown: string): string[] {
  return [...prose(markdown).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]);
}

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n ? `${base}-${n}` : base);
  }
  return anchors;
}

const links = pages.flatMap((page) =>
  linkTargets(readFileSync(page, 'utf8'))
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
    .map((target) => ({ page: relative(ROOT, page), target })),
);

describe('the README and the manuals in docs/', () => {
  it('have relative links to check (the walk finds them)', () => {
    expect(pages.map((p) => relative(ROOT, p))).toEqual(expect.arrayContaining(['README.md', join('docs', 'api.md')]));
    expect(links.length).toBeGreaterThan(50);
  });

  it.each(links)('$page → $target leads to a file of the repository, and to a heading of it', ({ page, target }) => {
    const [path, fragment] = target.split('#') as [string, string | undefined];
    const file = path ? resolve(ROOT, dirname(page), decodeURI(path)) : join(ROOT, page);
    expect(file === ROOT || file.startsWith(ROOT + sep)).toBe(true);
    expect(existsSync(file)).toBe(true);
    if (fragment !== undefined && file.endsWith('.md') && statSync(file).isFile()) {
      expect([...anchorsOf(readFileSync(file, 'utf8'))]).toContain(fragment);
    }
  });
});
