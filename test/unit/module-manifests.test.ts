import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema } from 'graphql';
import type { ModuleManifest } from '../../src/access/module-manifest';
import { MODULE_MANIFESTS } from '../../src/modules/manifests';
import { guardSchema, VISIBILITY } from '../../src/transports/graphql/visibility';

/**
 * Every module has a front door whose manifest is in the list the gateway folds
 * (src/modules/manifests.ts): a module cannot be forgotten, since its resolvers, entities and
 * rules reach the schema, the ORM and the start-time checks only through that list.
 */
const MODULES = join(__dirname, '..', '..', 'src', 'modules');
const folders = readdirSync(MODULES).filter((f) => statSync(join(MODULES, f)).isDirectory());
const MODULE_ORDER = JSON.parse(readFileSync(join(MODULES, 'module-order.json'), 'utf8')) as string[];
const manifestName = (folder: string) => `${folder.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())}Module`;

describe('module front doors', () => {
  it('there are modules to check', () => {
    expect(folders.length).toBeGreaterThan(20);
  });

  it.each(folders.map((f) => [f]))('src/modules/%s/index.ts exports its manifest, and the list holds it', (folder: string) => {
    expect([folder, existsSync(join(MODULES, folder, 'index.ts'))]).toEqual([folder, true]);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the folder is only known at run time
    const door = require(join(MODULES, folder, 'index.ts')) as Record<string, ModuleManifest | undefined>;
    const manifest = door[manifestName(folder)];
    expect(manifest?.name).toBe(folder);
    expect(MODULE_MANIFESTS).toContain(manifest);
  });

  it('the list holds each module once, and nothing else', () => {
    expect(MODULE_MANIFESTS.map((m) => m.name).sort()).toEqual([...folders].sort());
  });

  it('follows the one written order, src/modules/module-order.json, which the import rules read too', () => {
    expect(MODULE_MANIFESTS.map((m) => m.name)).toEqual(MODULE_ORDER);
  });

  // eligibility (who may hold: read at placement) comes before order, correction (re-pricing and
  // compensating what a NAV priced) before approval, which applies its requests.
  it.each([
    ['issuer', 'fund'],
    ['fund', 'share-class'],
    ['share-class', 'nav'],
    ['token', 'distributor'],
    ['investor', 'eligibility'],
    ['eligibility', 'order'],
    ['order', 'settlement'],
    ['settlement', 'distribution'],
    ['distribution', 'correction'],
    ['correction', 'approval'],
    ['approval', 'register'],
  ])('places %s before %s, as issue 45 declares', (before: string, after: string) => {
    expect(MODULE_ORDER.indexOf(before)).toBeGreaterThanOrEqual(0);
    expect(MODULE_ORDER.indexOf(before)).toBeLessThan(MODULE_ORDER.indexOf(after));
  });

  it('a type without a visibility rule stops the schema, naming the front door of the module that answers it', () => {
    // given the issuer module's query, answering a type of its own and a new one nobody ruled on
    const sdl = 'type Query { health: Health issuer: Issuer } type Health { status: String } type Issuer { id: ID fee: Fee } type Fee { bps: Int }';
    // then the new type names the module whose root field reaches it
    expect(() => guardSchema(buildSchema(sdl))).toThrow(
      'GraphQL visibility rules are incomplete:\n- type Fee has no visibility rule (src/modules/issuer/index.ts)',
    );
    // and a module's type whose row is missing names that module
    const rule = VISIBILITY.Issuer;
    delete VISIBILITY.Issuer;
    try {
      expect(() => guardSchema(buildSchema(sdl))).toThrow(
        'GraphQL visibility rules are incomplete:\n- type Issuer has no visibility rule (src/modules/issuer/index.ts)\n- type Fee has no visibility rule (src/modules/issuer/index.ts)',
      );
    } finally {
      VISIBILITY.Issuer = rule;
    }
  });
});
