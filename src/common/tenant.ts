import { distributorScope, type Principal } from './principal';

/**
 * Whose records a request concerns, for the additions of issue 14 (Idempotency-Keys, the event
 * feed): one distributor's, every distributor's (ops), or nobody's (no principal). Their one
 * tenant rule, so it can follow the access mechanism when that changes.
 */
export type Tenant = { distributorId: string } | 'all' | 'none';

export function tenantOf(principal: Principal): Tenant {
  if (principal.kind === 'anonymous') return 'none';
  const distributorId = distributorScope(principal);
  return distributorId === null ? 'all' : { distributorId };
}
