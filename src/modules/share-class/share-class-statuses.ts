/*
 * The statuses a share class is given, in a file without GraphQL or ORM imports so the ops
 * console's form offers the same list the gateway accepts (console/src/screens/share-class-fields.ts).
 */

/** `active` takes orders; `suspended` and `closed` refuse new ones. Any other word is refused, so a typo cannot close a class. */
export const SHARE_CLASS_STATUSES = ['active', 'suspended', 'closed'] as const;
