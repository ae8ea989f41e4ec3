import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema } from 'graphql';
import { foldManifests, type ModuleManifest } from '../../src/access/module-manifest';
import { MODULE_MANIFESTS, MODULE_PARTS } from '../../src/modules/manifests';
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

/**
 * The webhook event types are declared by the modules that emit them (their manifests'
 * `webhookEvents`), not listed by the webhook module: the fold is what the central registry held
 * (src/modules/webhook/webhook-event-types.ts before the families moved), in its published order.
 * Per type: the emitting module, the logged event it is sent for, and whether its `data` is the order's.
 */
const PUBLISHED_WEBHOOK_EVENTS: readonly (readonly [type: string, module: string, loggedAs: string, data: 'order' | 'event'])[] = [
  ['order.accepted', 'order', 'order.transition', 'order'],
  ['order.rejected', 'order', 'order.transition', 'order'],
  ['token.transfer_completed', 'order', 'order.transition', 'order'],
  ['token.transfer_failed', 'order', 'order.transition', 'order'],
  ['wallet.recovery_requested', 'approval', 'wallet.recovery_requested', 'event'],
  ['wallet.recovery_approved', 'approval', 'wallet.recovery_approved', 'event'],
  ['wallet.recovery_rejected', 'approval', 'wallet.recovery_rejected', 'event'],
  ['wallet.recovered', 'approval', 'wallet.recovered', 'event'],
  ['distribution.declared', 'distribution', 'distribution.declared', 'event'],
  ['distribution.paid', 'distribution', 'distribution.paid', 'event'],
  ['holding.changed', 'holding', 'holding.changed', 'event'],
  ['order.repriced', 'correction', 'order.repriced', 'event'],
  ['order.compensated', 'correction', 'order.compensated', 'event'],
];

describe('webhook event types, declared by the modules that emit them', () => {
  const { webhookEvents, webhookEventOwners } = MODULE_PARTS;

  it('every event type has exactly one emitting module, and the fold lists them as published', () => {
    const declared = MODULE_MANIFESTS.flatMap((m) => (m.webhookEvents?.types ?? []).map((t) => [t, m.name]));
    expect(declared.map(([t]) => t).sort()).toEqual([...new Set(declared.map(([t]) => t))].sort());
    expect(webhookEvents.types).toEqual(PUBLISHED_WEBHOOK_EVENTS.map(([type]) => type));
    expect(Object.fromEntries(declared)).toEqual(Object.fromEntries(PUBLISHED_WEBHOOK_EVENTS.map(([type, module]) => [type, module])));
    expect(webhookEventOwners).toEqual(Object.fromEntries(declared));
  });

  it.each(PUBLISHED_WEBHOOK_EVENTS.map((row) => [...row]))('%s (%s) is sent for a logged %s, with data of the %s', (type, module, loggedAs, data) => {
    const family = webhookEvents.familyOf(loggedAs);
    expect(MODULE_MANIFESTS.find((m) => m.webhookEvents === family)?.name).toBe(module);
    expect(family?.data === 'order' ? 'order' : 'event').toBe(data);
    // The recorder names the webhook event in the payload; a holding change is sent as itself.
    expect(webhookEvents.deliveredAs({ type: loggedAs, payload: { webhookEvent: type } })).toBe(type);
    expect(webhookEvents.isType(type)).toBe(true);
  });

  it('a logged event of no family is not sent, and an event type two modules declare stops the gateway', () => {
    expect(webhookEvents.deliveredAs({ type: 'order.created', payload: {} })).toBeNull();
    expect(webhookEvents.isType('order.created')).toBe(false);
    const order = MODULE_MANIFESTS.find((m) => m.name === 'order')!;
    const again = { ...MODULE_MANIFESTS.find((m) => m.name === 'holding')!, webhookEvents: { ...order.webhookEvents!, listed: 99 } };
    expect(() => foldManifests([order, again])).toThrow(
      'webhook event order.accepted is emitted twice (src/modules/order/index.ts and src/modules/holding/index.ts)',
    );
  });
});
