import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/**
 * What one request knows about itself: an id for its log lines and the actor its writes are
 * stamped with (`x-actor`, or the default of the door it came through).
 */
export interface RequestScope {
  requestId: string;
  actor: string;
  /** The caller's address (rate limits); a scope opened inside another keeps it. */
  clientAddress?: string;
}

const storage = new AsyncLocalStorage<RequestScope>();

export const DEFAULT_ACTOR = 'system';

export function runInScope<T>(scope: Partial<RequestScope>, fn: () => T): T {
  const clientAddress = scope.clientAddress ?? storage.getStore()?.clientAddress;
  return storage.run({ requestId: scope.requestId ?? randomUUID(), actor: scope.actor ?? DEFAULT_ACTOR, ...(clientAddress && { clientAddress }) }, fn);
}

export function currentScope(): RequestScope | undefined {
  return storage.getStore();
}

export function currentActor(): string {
  return storage.getStore()?.actor ?? DEFAULT_ACTOR;
}
