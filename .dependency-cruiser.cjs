/**
 * The layers, as imports (docs/architecture.md#layers). Run by `npm run lint:layers` and `npm test`.
 *
 *   composition root   src/main.ts, app.ts, gateway.ts, services.ts, context-services.ts, src/boot/
 *   transports         src/transports/, rest-compat/, src/ops/, src/console/, *.routes.ts
 *   modules            src/modules/<aggregate>/: entity, service, types, errors AND resolver
 *                      (vertical slices: a resolver lives with its module and is registered by
 *                      the GraphQL transport; it uses only what lies below: the request context
 *                      in src/access/graphql-context.ts and the scalars in src/common/scalars.ts)
 *   below the modules  src/access/, src/events/, src/supply/, src/ledger/, src/config/, src/persistence/
 *   bottom             src/common/
 *
 * Each layer imports only layers below it; every violation fails (there is no list of tolerated ones).
 */
const ROOT = '^src/(main|app|gateway|services|context-services)\\.ts$|^src/boot/';
const TRANSPORTS = '^src/transports/|^rest-compat/|^src/ops/|^src/console/|\\.routes\\.ts$';
const MODULES = '^src/modules/';
/*
 * The modules' order (docs/architecture.md#modules), written once: src/modules/module-order.json,
 * which src/modules/manifests.ts follows (test/unit/module-manifests.test.ts). A module imports
 * only modules before it, and only through their front door (`index.ts`).
 */
const MODULE_ORDER = require('./src/modules/module-order.json');
const BELOW_MODULES = '^src/(access|events|supply|ledger|config|persistence|common)/';

module.exports = {
  forbidden: [
    {
      name: 'no-import-of-the-root',
      comment: 'The composition root wires everything; nothing it wires may import it back.',
      severity: 'error',
      from: { pathNot: ROOT },
      to: { path: ROOT },
    },
    {
      name: 'modules-import-no-transport',
      comment: 'A module (resolvers included) knows no door: what a resolver needs lies below the modules.',
      severity: 'error',
      from: { path: MODULES },
      to: { path: TRANSPORTS },
    },
    {
      name: 'lower-layers-import-no-module',
      comment: 'access, events, supply, config, persistence and common sit below the modules and the transports.',
      severity: 'error',
      from: { path: BELOW_MODULES, pathNot: TRANSPORTS },
      to: { path: `${MODULES}|${TRANSPORTS}` },
    },
    {
      name: 'common-is-the-bottom',
      comment: 'src/common/ (errors, ids, money, scalars, clock) imports nothing else of the gateway.',
      severity: 'error',
      from: { path: '^src/common/' },
      to: { path: '^(src|rest-compat)/', pathNot: '^src/common/' },
    },
    {
      name: 'chain-imports-no-domain-module',
      comment:
        'The chain is a port: it speaks to chains and knows no orders, NAVs, share classes, dealing dates or token records; ' +
        'what it needs of them it is handed at wiring (register-port.ts, TokensToFollow in follower.ts).',
      severity: 'error',
      from: { path: '^src/modules/chain/' },
      to: { path: MODULES, pathNot: '^src/modules/chain/' },
    },
    {
      name: 'modules-meet-at-front-doors',
      comment: 'A module imports another only through its front door, src/modules/<m>/index.ts, which exports what others may use.',
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/[^/]+/', pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/index\\.ts$'] },
    },
    ...MODULE_ORDER.map((name, i) => ({
      name: `module-order-${name}`,
      comment: `${name} may import only the modules before it in src/modules/module-order.json (${MODULE_ORDER.slice(0, i).join(', ') || 'none'}).`,
      severity: 'error',
      from: { path: `^src/modules/${name}/` },
      to: {
        path: `^src/modules/(${
          MODULE_ORDER.slice(i)
            .filter((m) => m !== name)
            .join('|') || '$^'
        })/`,
      },
    })),
    {
      name: 'modules-are-in-the-order',
      comment: 'Every folder of src/modules/ has its place in src/modules/module-order.json.',
      severity: 'error',
      from: { path: '^src/modules/[^/]+/', pathNot: `^src/modules/(${MODULE_ORDER.join('|')})/` },
      to: {},
    },
    {
      name: 'resolvers-live-in-modules',
      comment: 'A resolver lives in its module (or, for the event feed and subscriptions, in the GraphQL transport).',
      severity: 'error',
      from: { path: '\\.resolver\\.ts$', pathNot: `${MODULES}|^src/transports/graphql/` },
      to: {},
    },
    {
      name: 'no-circular',
      comment: 'No file reaches itself through its imports (type-only imports included).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^rest-compat/generated/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
