import type { EntityManager } from '@mikro-orm/postgresql';
import { forbidden, unauthenticated, type DomainError } from '../common/errors';
import { recordId, shownId } from '../common/ids';
import { hasRole, type OpsRole, type Principal, type Surface } from './principal';

/** A distributor's granted share classes with each grant's delivery mode. */
export type GrantMap = ReadonlyMap<string, string>;

/** Where the grant rule is read from (DistributorService: cached for reads, the database inside a write). */
export interface GrantSource {
  grantsOf(em: EntityManager, distributorId: string): Promise<GrantMap>;
}

/** Whose books a caller reads: every book (ops) or one distributor's. There is no third answer. */
export type BookScope = { all: true } | { all: false; distributorId: string };

/**
 * What one request may see and do, built once from its principal (`accessFor`) and handed to
 * every service, field resolver and subscription filter. It is the only place the tenant rules
 * are written:
 * - nobody (no principal) sees nothing: every question but `sees` throws UNAUTHENTICATED, and
 *   `sees` answers false — there is no value meaning "no restriction" that nobody could reach;
 * - ops see every book and may use either surface's ids;
 * - a distributor sees its own records and the share classes granted to it, and names
 *   distributors and investors as its surface does (`DT`/`IN` on R, `PT`/`US` on O).
 * Another distributor's record answers exactly like a missing one: callers turn `false` into the
 * documented not-found error.
 */
export class Access {
  constructor(
    readonly principal: Principal,
    private readonly grants: GrantSource,
  ) {}

  /**
   * Ops access outside a request (the demo seed, CLI scripts, test factories): ops never consult
   * grants. Without `principalId` it is nobody's person, which four eyes refuse.
   */
  static ops(name: string, roles: readonly OpsRole[] = ['admin'], principalId: string | null = null): Access {
    return new Access(
      { kind: 'ops', id: principalId, name, roles, tokenId: null },
      { grantsOf: () => Promise.reject(new Error('ops access reads no grants')) },
    );
  }

  get isOps(): boolean {
    return this.principal.kind === 'ops';
  }

  get isAnonymous(): boolean {
    return this.principal.kind === 'anonymous';
  }

  /** The actor name of an ops caller (its principal's name); null for everyone else. */
  get opsName(): string | null {
    return this.principal.kind === 'ops' ? this.principal.name : null;
  }

  /** The ops principal's id (what four eyes compare); null for everyone else and for the gateway's own work. */
  get opsPrincipalId(): string | null {
    return this.principal.kind === 'ops' ? this.principal.id : null;
  }

  /** The roles of an ops caller; none for everyone else. */
  get opsRoles(): readonly OpsRole[] {
    return this.principal.kind === 'ops' ? this.principal.roles : [];
  }

  /** Whether the caller is ops with `role` (admin has every role). */
  hasRole(role: OpsRole): boolean {
    return hasRole(this.opsRoles, role);
  }

  /** Ops with `role`: nobody is told to authenticate, a distributor or an ops caller without it is refused. */
  requireRole(role: OpsRole): void {
    this.requireOps();
    if (!this.hasRole(role)) throw forbidden(`the ${role} role is required`);
  }

  /** Ops-only actions: nobody is told to authenticate, a distributor is refused. */
  requireOps(): void {
    if (this.principal.kind === 'anonymous') throw unauthenticated('authentication required');
    if (this.principal.kind !== 'ops') throw forbidden('ops access required');
  }

  /** Any authenticated caller. */
  requireCaller(): void {
    if (this.principal.kind === 'anonymous') throw unauthenticated('authentication required');
  }

  /** The books the caller reads; nobody has none (UNAUTHENTICATED). */
  scope(): BookScope {
    switch (this.principal.kind) {
      case 'ops':
        return { all: true };
      case 'distributor':
        return { all: false, distributorId: this.principal.distributorId };
      default:
        throw unauthenticated('authentication required');
    }
  }

  /**
   * A query filter confining records to the caller's books by their owning-distributor field:
   * `{}` for ops, `{ [field]: <own id> }` for a distributor; nobody is refused before a query runs.
   */
  ownedBy<F extends string = 'distributor'>(field: F = 'distributor' as F): Partial<Record<F, string>> {
    const scope = this.scope();
    return scope.all ? {} : ({ [field]: scope.distributorId } as Record<F, string>);
  }

  /** Whether the caller may see a record owned by `distributorId` (false for nobody, and for no owner). */
  sees(distributorId: string | null | undefined): boolean {
    if (!distributorId) return false;
    if (this.principal.kind === 'ops') return true;
    return this.principal.kind === 'distributor' && this.principal.distributorId === distributorId;
  }

  /** The caller's own distributor id (`DT…`); null for ops (who act for any) and nobody. */
  get ownDistributorId(): string | null {
    return this.principal.kind === 'distributor' ? this.principal.distributorId : null;
  }

  /** Who the caller acts as when it moves a record: operations or a distributor (nobody moves nothing). */
  get actor(): 'ops' | 'distributor' {
    return this.scope().all ? 'ops' : 'distributor';
  }

  /** The surface whose ids the caller speaks; null for ops, who may use either. */
  get surface(): Surface | null {
    return this.principal.kind === 'distributor' ? this.principal.surface : null;
  }

  /** The record id (`DT`/`IN`) of a distributor or investor as the caller names it; null when not of its surface's form. */
  recordId(id: unknown, kind: 'distributor' | 'investor'): string | null {
    return recordId(id, kind, this.surface);
  }

  /** A record id as the caller's surface shows it (`IN000001` → `US000001` on surface O). */
  shownId(id: string, kind: 'distributor' | 'investor'): string {
    return shownId(id, kind, this.surface);
  }

  /**
   * Whether the caller may see a share class: ops any, a distributor those granted to it.
   * Cached on reads, from the database inside a write (GrantSource).
   */
  async seesShareClass(em: EntityManager, shareClassId: string): Promise<boolean> {
    const scope = this.scope();
    if (scope.all) return true;
    return (await this.grants.grantsOf(em, scope.distributorId)).has(shareClassId);
  }

  /** The share classes the caller sees: 'all' for ops, else the granted ones with their delivery modes. */
  async visibleShareClasses(em: EntityManager): Promise<'all' | GrantMap> {
    const scope = this.scope();
    return scope.all ? 'all' : this.grants.grantsOf(em, scope.distributorId);
  }
}

/** A distributor's lifecycle status (`active`, `suspended`, …); null when it no longer exists. */
export interface StandingSource {
  standingOf(em: EntityManager, distributorId: string): Promise<string | null>;
}

/** A distributor that is not `active` is refused at every door (403 naming its status); null when it may act. */
export function standingRefusal(status: string): DomainError | null {
  return status !== 'active' ? forbidden(`distributor is ${status}`) : null;
}

/**
 * The one way a request gets its Access: a distributor whose status is not `active` is refused
 * (403 naming the status) whichever door it came through and whatever credential it holds, so
 * suspending a distributor stops its host mappings, access tokens and subscriptions at once.
 */
export async function accessFor(em: EntityManager, principal: Principal, deps: GrantSource & StandingSource): Promise<Access> {
  if (principal.kind === 'distributor') assertInGoodStanding(await deps.standingOf(em, principal.distributorId));
  return new Access(principal, deps);
}

/** Only an `active` distributor is admitted, or given a token (surface O's /auth/token and /auth/refresh). */
export function assertInGoodStanding(status: string | null): void {
  if (status === null) throw unauthenticated('distributor no longer exists');
  const refusal = standingRefusal(status);
  if (refusal) throw refusal;
}
