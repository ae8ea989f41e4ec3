/*
 * The messages the OpenAPI documents list beside each route's own: what the door, the admission and
 * the input guard answer whatever the row, and the placement refusals several rows share. The code
 * that answers each is named above it; the contract test holds every answer to these texts.
 */

/** Admission (src/access/access.ts): a distributor that is not active is refused on every door. */
export const INACTIVE_DISTRIBUTOR = 'distributor is <status>';

/** A browser's request from another site (rest-compat/cross-site.ts). */
export const CROSS_SITE = ['cross-site request refused: origin <origin> is not allowed', 'cross-site request refused: Sec-Fetch-Site <value>'];

/** A surface-R host's binding (src/modules/distributor/host-binding.ts). */
export const HOST_BINDING = [
  'host <hostname> is not bound: bind it to source ranges or a client certificate (bindDistributorHost)',
  'host <hostname> does not accept requests from this address',
  'host <hostname> requires a client certificate',
  'host <hostname> does not accept this client certificate',
];

/** A placement for a share class or an investor that is not active (placementParties). */
export const NOT_TRADING = [
  'share class <shareClassId> is <status>: it takes no new orders',
  'investor <investorId> is <status>: it places no orders',
] as const;

/** A subscription by an investor the share class's rule set or KYC refuses (src/modules/eligibility/eligibility.ts); the reason names the rule. */
export const NOT_ELIGIBLE = ['investor <investorId> is not eligible for <shareClassId>: <reason>'] as const;

/** A redemption by an investor whose wallet an operator froze on the class (src/modules/investor/wallet-freeze.ts `walletFrozenRefusal`). */
export const WALLET_FROZEN = [
  "the investor's wallet <wallet> is frozen on share class <shareClassId>: its redemptions and transfers are refused until an approved unfreeze",
] as const;

/**
 * What the facade answers of any request's values before a row's operation decides anything: the
 * input guard (rest-compat/input-guard.ts, src/common/validate.ts) and GraphQL's coercion of the
 * operation's variables (executor.ts, `describeCoercionError`). `<field>` is the field's name.
 */
export const INPUT_ERRORS = [
  '<field> must be at most <n> characters',
  '<field> must not contain control characters',
  '<field> must be valid Unicode text',
  '<field> is out of range',
  '<field> is nested too deeply',
  '<field> must be a number',
  // a decimal with more places than its column keeps (common/validate.ts)
  '<field> must have at most <n> decimal places',
  '<field> must be a string',
  '<field> must be a boolean',
  '<field> must be epoch milliseconds from <min> to <max>',
  '<field> has an invalid value',
  '<field> is required',
  '<field> is invalid',
  // an id not of its documented form, wherever a row reads one (common/ids.ts `documentedId`)
  'invalid <field> format',
];
