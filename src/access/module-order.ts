/**
 * The modules' order (docs/architecture.md#the-order) as the compiler reads it: the data is
 * src/modules/module-order.json, which .dependency-cruiser.cjs reads too; a JSON import widens to
 * string[], so the order is spelt here once more and test/unit/module-services.test.ts holds the two equal.
 */
export const MODULE_ORDER = [
  'chain',
  'issuer',
  'fund',
  'share-class',
  'nav',
  'token',
  'dealing',
  'distributor',
  'investor',
  'eligibility',
  'auth',
  'holding',
  'order',
  'settlement',
  'distribution',
  'correction',
  'approval',
  'register',
  'book',
  'onboarding',
  'webhook',
  'audit',
  'health',
  'idempotency',
] as const;

export type ModuleName = (typeof MODULE_ORDER)[number];

/** The names of `order` up to and including `M`. */
type UpTo<M, Order extends readonly string[]> = Order extends readonly [infer Head, ...infer Rest extends readonly string[]]
  ? Head | (Head extends M ? never : UpTo<M, Rest>)
  : never;

/** `M` and the modules before it: the modules whose services `M` may use. */
export type ModulesUpTo<M extends ModuleName> = UpTo<M, typeof MODULE_ORDER>;
