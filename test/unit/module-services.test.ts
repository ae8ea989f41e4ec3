import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { foldManifests, type ModuleManifest } from '../../src/access/module-manifest';
import { MODULE_ORDER } from '../../src/access/module-order';
import { INFRASTRUCTURE_SERVICES } from '../../src/access/module-services';
import { MODULE_MANIFESTS, MODULE_PARTS } from '../../src/modules/manifests';

/*
 * A module's resolvers call the services of their own module and of the modules before it
 * (src/modules/module-order.json), never a later one's: `ModuleContext<'m'>` holds only those, so
 * the compiler refuses the call; this test reads the tree and says the same, so the rule stands
 * even where a type is widened. docs/architecture.md#services-per-module.
 */
const MODULES = join(__dirname, '..', '..', 'src', 'modules');
const ORDER = JSON.parse(readFileSync(join(MODULES, 'module-order.json'), 'utf8')) as string[];
const owners: Record<string, string> = MODULE_PARTS.serviceOwners;
const place = (module: string) => ORDER.indexOf(module);

/** The files of a module, but its REST rows (`*.routes.ts`), which are the transports' (.dependency-cruiser.cjs). */
function filesOf(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return filesOf(path);
    return name.endsWith('.ts') && !name.endsWith('.routes.ts') ? [path] : [];
  });
}

/** The code of a file without its comments, which may name a service to explain it. */
const code = (path: string) =>
  readFileSync(path, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|\s)\/\/.*$/gm, '$1');

interface Use {
  module: string;
  file: string;
  what: string;
}

/** Every service a module's files reach through the context, and every other way they reach the context's services. */
function usesIn(module: string): { calls: (Use & { key: string })[]; other: Use[] } {
  const calls: (Use & { key: string })[] = [];
  const other: Use[] = [];
  for (const path of filesOf(join(MODULES, module))) {
    const file = path.slice(MODULES.length + 1);
    const text = code(path);
    for (const m of text.matchAll(/\.services\s*\??\.\s*(\w+)/g)) calls.push({ module, file, key: m[1], what: m[0] });
    // The whole bag (`const s = ctx.services`, `{ services } = ctx`, `ctx['services']`) hides which service is called.
    for (const m of text.matchAll(/\.services\b(?!\s*\??\.\s*\w)|\{[^{}]*\bservices\b[^{}]*\}\s*=|\[\s*'services'\s*\]/g))
      other.push({ module, file, what: m[0] });
    // The context of every service is the transports'; a module names its own (ModuleContext<'m'>).
    for (const m of text.matchAll(/\b(GatewayContext|ContextServices)\b/g)) other.push({ module, file, what: m[0] });
    for (const m of text.matchAll(/\b(ModuleContext|ServicesOf)<\s*'([\w-]+)'\s*>/g))
      if (place(m[2]) < 0 || place(m[2]) > place(module)) other.push({ module, file, what: m[0] });
  }
  return { calls, other };
}

const uses = ORDER.map(usesIn);
const calls = uses.flatMap((u) => u.calls);

describe('services per module', () => {
  it('the order the compiler reads (src/access/module-order.ts) is module-order.json', () => {
    expect([...MODULE_ORDER]).toEqual(ORDER);
  });

  it('each service has one owner, a module or the infrastructure', () => {
    const keys = MODULE_MANIFESTS.flatMap((m: ModuleManifest) => Object.keys(m.services));
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.filter((k) => k in INFRASTRUCTURE_SERVICES)).toEqual([]);
  });

  it('a service owned twice stops the fold, naming both front doors', () => {
    const [order] = MODULE_MANIFESTS.filter((m) => m.name === 'order');
    const rival = { ...MODULE_MANIFESTS.find((m) => m.name === 'settlement')!, services: { twoStep: true } } as ModuleManifest;
    expect(() => foldManifests([order, rival])).toThrow('service twoStep is owned twice (src/modules/order/index.ts and src/modules/settlement/index.ts)');
  });

  it('the modules call services through the context', () => {
    // the ones that do are enough to prove the scan reads them
    expect(calls.length).toBeGreaterThan(100);
    expect(new Set(calls.map((c) => c.module)).size).toBeGreaterThan(20);
  });

  it('every service a module calls has an owner', () => {
    expect(calls.filter((c) => !(c.key in owners) && !(c.key in INFRASTRUCTURE_SERVICES)).map((c) => `${c.file}: ${c.what}`)).toEqual([]);
  });

  it("no module calls a later module's service", () => {
    const forward = calls.filter((c) => c.key in owners && place(owners[c.key]) > place(c.module));
    expect(forward.map((c) => `${c.file}: ${c.what} (owned by ${owners[c.key]}, after ${c.module})`)).toEqual([]);
  });

  it('a module reaches the services only by key, through its own context', () => {
    expect(uses.flatMap((u) => u.other).map((o) => `${o.file}: ${o.what}`)).toEqual([]);
  });
});
