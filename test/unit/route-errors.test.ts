import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SURFACE_O } from '../../rest-compat/surface-o';
import { SURFACE_R } from '../../rest-compat/surface-r';

/*
 * Each row's documented errors, checked against what the code can raise. Both ways:
 * - here, every documented `errorMsg` is a message some code of the gateway writes (a string or
 *   template literal of src/ or of the facade's own files in rest-compat/, not its route tables;
 *   `${…}` standing for any value, `<name>` in the document for a value): a hand-copied message
 *   that drifted, or one nothing raises, fails;
 * - and every REST answer of the integration tests is held to its operation's documented list
 *   for its status (test/support/contract.ts), so a message an operation raises undocumented fails
 *   the test that provoked it.
 */

const ROOT = join(__dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'generated' ? [] : sources(path);
    return name.endsWith('.ts') ? [readFileSync(path, 'utf8')] : [];
  });
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every message the code can write, as a pattern: literal text, `${…}` any value. */
const WRITTEN: RegExp[] = (() => {
  const patterns: RegExp[] = [];
  // The facade's own code, not its route tables or documents: those hold the copies under test.
  const facade = readdirSync(join(ROOT, 'rest-compat'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => readFileSync(join(ROOT, 'rest-compat', f), 'utf8'));
  for (const text of [...sources(join(ROOT, 'src')), ...facade]) {
    for (const m of text.matchAll(/'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g)) {
      const literal = m[1] ?? m[2] ?? m[3];
      if (!literal || literal.length < 6) continue;
      const texts = literal.split(/\$\{(?:[^{}]|\{[^{}]*\})*\}/).map((p) => p.replace(/\\(.)/g, '$1'));
      // A message has words of its own: a template that is mostly values (`${a}: ${b}`) is not one.
      if (texts.join('').replace(/[^A-Za-z]/g, '').length < 6) continue;
      patterns.push(new RegExp(`^${texts.map(escape).join('.*')}$`, 's'));
    }
  }
  return patterns;
})();

const rows = [...SURFACE_R.map((r) => ['R', r] as const), ...SURFACE_O.map((r) => ['O', r] as const)];

describe("Each route row's documented errors are messages the code raises", () => {
  it.each(rows.map(([surface, r]) => [`${surface} ${r.method} ${r.path}${r.when ? ' (one of its flows)' : ''}`, r] as const))('%s', (_name, row) => {
    // A message that is a value as a whole (the supply-side platform's own reason) is not the gateway's to write.
    const documented = Object.values(row.doc.errors ?? {})
      .flat()
      .filter((message) => !/^<[^<>]+>$/.test(message));
    // `<name>` in a documented message stands for a value the code fills in.
    const unwritten = documented.filter((message) => !WRITTEN.some((p) => p.test(message.replace(/<[^<>]+>/g, '∗'))));
    expect(unwritten).toEqual([]);
  });

  it('a message the code does not write is caught', () => {
    const matching = WRITTEN.filter((p) => p.test('order not fund')).map(String);
    expect(matching).toEqual([]);
    expect(WRITTEN.some((p) => p.test('distributorId not found: DT…'))).toBe(true); // a template: any value
    expect(WRITTEN.some((p) => p.test('order not fund'))).toBe(false);
  });
});
