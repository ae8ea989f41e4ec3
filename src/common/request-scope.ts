import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/**
 * What one request knows about itself: an id for its log lines, the principal that
 * authenticated (what every record's `…_principal` column and the audit log hold), and the
 * actor note its writes are also stamped with (`x-actor`, or the default of the door it came
 * through: what surface R's `createdBy`/`updatedBy`/`by` show, as the description says).
 */
export interface RequestScope {
  requestId: string;
  actor: string;
  /**
   * `ops:<name>`, `distributor:DT…`, `partner:PT…` once the door authenticated the caller
   * (src/access/principal.ts `principalLabel`); `anonymous` before; a background job's own name.
   * Never read from a header.
   */
  principal: string;
  /** The caller's address (rate limits); a scope opened inside another keeps it. */
  clientAddress?: string;
}

const storage = new AsyncLocalStorage<RequestScope>();

export const DEFAULT_ACTOR = 'system';

export function runInScope<T>(scope: Partial<RequestScope>, fn: () => T): T {
  const clientAddress = scope.clientAddress ?? storage.getStore()?.clientAddress;
  const actor = scope.actor ?? DEFAULT_ACTOR;
  // A door passes its principal explicitly ('anonymous' until it authenticates); a job is its own principal.
  const principal = scope.principal ?? actor;
  return storage.run({ requestId: scope.requestId ?? randomUUID(), actor, principal, ...(clientAddress && { clientAddress }) }, fn);
}

/** The scopes src/app.ts opens, one per HTTP request, which a door fills in (runInDoorScope). */
const requestScopes = new WeakSet<RequestScope>();

/** src/app.ts: the one scope of an HTTP request, opened as it arrives with its id and the caller's address. */
export function runRequest<T>(requestId: string, clientAddress: string | undefined, fn: () => T): T {
  const scope: RequestScope = { requestId, actor: DEFAULT_ACTOR, principal: DEFAULT_ACTOR, ...(clientAddress && { clientAddress }) };
  requestScopes.add(scope);
  return storage.run(scope, fn);
}

/**
 * A door's scope (its actor; `anonymous` until it authenticates): the request's own scope filled
 * in rather than another opened inside it, so a request pays for one AsyncLocalStorage context
 * (and one id) however many layers it crosses. Outside an HTTP request, a scope of its own.
 */
export function runInDoorScope<T>(scope: Partial<RequestScope>, fn: () => T): T {
  const open = storage.getStore();
  if (!open || !requestScopes.has(open)) return runInScope(scope, fn);
  if (scope.requestId) open.requestId = scope.requestId;
  open.actor = scope.actor ?? DEFAULT_ACTOR;
  open.principal = scope.principal ?? open.actor;
  return fn();
}

export function currentScope(): RequestScope | undefined {
  return storage.getStore();
}

export function currentActor(): string {
  return storage.getStore()?.actor ?? DEFAULT_ACTOR;
}

/** The principal that authenticated the work in progress (see RequestScope.principal). */
export function currentPrincipal(): string {
  return storage.getStore()?.principal ?? DEFAULT_ACTOR;
}

/** Transports: the door authenticated `label`; every write of this scope records it. */
export function authenticatedAs(label: string | null): void {
  const scope = storage.getStore();
  if (scope && label) scope.principal = label;
}
