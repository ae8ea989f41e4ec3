import type { OpsRules } from './duties';
import { hasRole, type OpsRole } from './principal';

/*
 * Which role an ops principal needs for each root field is written once, by the module that
 * defines the field, in its manifest (`mutationRoles`, `queryRoles` in src/modules/<m>/index.ts),
 * and applied to every door (GraphQL over HTTP and graphql-ws, the REST facade's in-process
 * execution) by `guardOpsRoles` (src/transports/graphql/ops-guard.ts). Every mutation has a rule:
 * the schema does not build otherwise, so a new mutation is nobody's until someone decides whose
 * it is. Queries and subscriptions are reads (`viewer`, which every ops role has) unless named.
 *
 * The rule speaks of ops callers only: what a distributor may do is its services' business
 * (`requireOps`, the tenant rules), and public fields stay public.
 */

/** The role-bound root fields `roles` may call, by name: the console shows only these actions. */
export function opsFieldsAllowed(rules: OpsRules, roles: readonly OpsRole[]): string[] {
  return Object.entries({ ...rules.mutationRoles, ...rules.queryRoles }).flatMap(([field, role]) => (hasRole(roles, role) ? [field] : []));
}
