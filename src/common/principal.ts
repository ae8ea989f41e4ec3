/**
 * Who is asking. Every request carries exactly one principal, and services filter by it, so the
 * isolation between distributors is decided in one place whichever door a request came through.
 */
export type Surface = 'R' | 'O';

export type Principal =
  | { kind: 'ops'; name: string }
  | { kind: 'distributor'; distributorId: string; surface: Surface }
  | { kind: 'anonymous' };

export const anonymous: Principal = { kind: 'anonymous' };

export function isOps(p: Principal): p is Extract<Principal, { kind: 'ops' }> {
  return p.kind === 'ops';
}

/** The distributor a principal is confined to; `null` for ops, who see every book. */
export function distributorScope(p: Principal): string | null {
  return p.kind === 'distributor' ? p.distributorId : null;
}

/** The surface whose ids the caller speaks; null for ops (and nobody), who may use either. */
export function callerSurface(p: Principal): Surface | null {
  return p.kind === 'distributor' ? p.surface : null;
}

/** Whether the principal may see a record owned by `distributorId`. */
export function canSee(p: Principal, distributorId: string): boolean {
  if (p.kind === 'ops') return true;
  return p.kind === 'distributor' && p.distributorId === distributorId;
}

import { forbidden, unauthenticated } from './errors';

/** Ops mutations and queries: anonymous callers are told to authenticate, distributors refused. */
export function assertOps(p: Principal): asserts p is Extract<Principal, { kind: 'ops' }> {
  if (p.kind === 'anonymous') throw unauthenticated('authentication required');
  if (p.kind !== 'ops') throw forbidden('ops access required');
}

/** Distributor-facing reads and writes: any authenticated principal; ops act for any distributor. */
export function assertAuthenticated(p: Principal): asserts p is Exclude<Principal, { kind: 'anonymous' }> {
  if (p.kind === 'anonymous') throw unauthenticated('authentication required');
}
