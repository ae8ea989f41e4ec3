import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../common/clock';
import { DEFAULT_OPS_TOKEN_TTL_SECONDS } from '../../config';
import { appendEvent, type WrittenEvent } from '../../events/event-log';
import type { IssuedOpsToken } from './auth.types';
import { OpsToken } from './ops-token.entity';
import { OpsPrincipal } from './ops-principal.entity';
import { lockOpsPrincipal, notifyOpsTokenChannel, unrevokedOpsToken } from './auth.queries';
import { opsPrincipalName } from './ops-principal-name';
import { isOpsToken, newOpsToken, newSecondPart, opsTokenHash } from './ops-token-secret';
import { badRequest, conflict, forbidden, notFound, unauthenticated } from '../../common/errors';
import { OPS_ROLES, type OpsRole } from '../../access/principal';

/** The NOTIFY channel a revocation (or a change of roles) speaks on, in its own transaction (delivered at its commit). */
export const OPS_TOKEN_CHANNEL = 'gateway_ops_token';
/** The event a revocation appends (src/events/event-log.ts): it drops the cache of every gateway over this ORM. */
export const OPS_TOKEN_REVOKED = 'ops_token.revoked';
/** The event a change of a principal's roles appends: the same, so no token keeps the old roles. */
export const OPS_PRINCIPAL_CHANGED = 'ops_principal.changed';
/** Tokens remembered at most (a few are in use; the bound keeps a flood of valid-looking ones harmless). */
const CACHE_MAX = 1_000;

/**
 * Roles that take part in four eyes: an operator asks, an approver decides, an admin does both.
 * A principal holding one is created only by a request a second admin approves (requestOpsPrincipal):
 * one admin with a principal of its own making would ask with one and decide with the other.
 */
export const FOUR_EYES_ROLES: readonly OpsRole[] = ['operator', 'approver', 'admin'];

/** An ops token that verifies: whose it is and what it may do. */
export interface VerifiedOpsToken {
  principalId: string;
  tokenId: string;
  name: string;
  roles: OpsRole[];
}

/** The caller of `rotate`: a principal and the token it came with. */
export interface TokenHolder {
  id: string | null;
  tokenId: string | null;
}

/**
 * Ops principals and their tokens: a principal is a person (a unique normalised name, its roles);
 * its tokens are 32 random bytes (or two parts of them, ops-token-secret.ts), shown once, stored
 * hashed, valid until their expiry (OPS_TOKEN_TTL_SECONDS) or revocation.
 *
 * Everything that ends or replaces a principal's tokens (revoke, rotate, reset, a change of roles)
 * takes the principal's row lock first (`lockPrincipal`), so they happen one after the other: a
 * revocation that answered leaves no live token of that principal, whatever rotation ran beside it
 * (a rotation checks, under the lock, that the token it was asked with still works).
 *
 * The check costs no statement per request: a valid token is remembered in this process with its
 * expiry, and forgotten whenever any token is revoked or any principal's roles change, on every
 * instance at once:
 * - such a change appends its event and sends NOTIFY `gateway_ops_token` in its own transaction;
 *   this process's gateways hear the event at commit (`onRevocation`), the others over their
 *   LISTEN connection (src/modules/auth/ops-token-revocations.ts);
 * - whoever holds a credential open (a graphql-ws socket) is told (`onForget`) and checks again;
 * - the memory is trusted only while revocations can reach it (`trustCache`): with a PostgreSQL
 *   server, while the LISTEN connection is up; on the embedded database, which one process
 *   opens, always. Otherwise every request reads the table, as before;
 * - a read that began before a revocation is not remembered (the generation moved meanwhile).
 */
export class OpsTokenService {
  private readonly known = new Map<string, VerifiedOpsToken & { expiresAt: number }>();
  private readonly forgetListeners = new Set<() => void>();
  private generation = 0;
  private trusted = false;

  constructor(
    private readonly clock: Clock,
    private readonly ttlSeconds = DEFAULT_OPS_TOKEN_TTL_SECONDS,
  ) {}

  isOpsToken(token: string): boolean {
    return isOpsToken(token);
  }

  /**
   * Break-glass (the `ops-token` script, the demo start, test support: whoever runs it holds the
   * database): a NEW principal `name` with `roles` and its first token. A name that exists
   * (folded) is refused: a person is issued a credential once; a lost one is reset.
   */
  async issue(em: EntityManager, name: string, roles: readonly string[], createdBy = 'cli'): Promise<IssuedOpsToken> {
    return em.transactional(async (tem) => {
      const principal = await this.createPrincipal(tem, opsPrincipalName(name), opsRoles(roles), createdBy);
      return this.issueIn(tem, principal);
    });
  }

  /**
   * `issueOpsToken`: an admin creates a NEW principal that takes no part in four eyes (`viewer`)
   * and receives its first token. Every other role is asked for (requestOpsPrincipal).
   */
  async issueViewer(em: EntityManager, name: unknown, roles: readonly string[], createdBy: string): Promise<IssuedOpsToken> {
    const wanted = opsRoles(roles);
    const fourEyes = wanted.filter((r) => FOUR_EYES_ROLES.includes(r));
    if (fourEyes.length) {
      throw forbidden(
        `a principal with ${fourEyes.join(', ')} is created by requestOpsPrincipal, which another admin approves; issueOpsToken issues viewer principals only`,
      );
    }
    return em.transactional(async (tem) => this.issueIn(tem, await this.createPrincipal(tem, opsPrincipalName(name), wanted, createdBy)));
  }

  /**
   * Break-glass and the demo start: the principal `name` (created if missing) gets `roles` when
   * given, every token of it is revoked, and one new token is issued, in one transaction.
   */
  async bootstrap(em: EntityManager, name: string, roles?: readonly string[], createdBy = 'cli'): Promise<IssuedOpsToken> {
    const folded = opsPrincipalName(name);
    const wanted = roles ? opsRoles(roles) : undefined;
    return em.transactional(async (tem) => {
      const existing = await tem.findOne(OpsPrincipal, { name: folded });
      const principal = existing ? await this.lockPrincipal(tem, existing.id) : await this.createPrincipal(tem, folded, wanted ?? ['viewer'], createdBy);
      if (wanted && existing) await this.setRolesIn(tem, principal, wanted);
      await this.revokeIn(tem, principal);
      return this.issueIn(tem, principal);
    });
  }

  /**
   * `rotateOpsToken`: a new token for the caller's own principal, every other of its tokens
   * revoked, in one transaction under the principal's lock. A caller whose token was revoked
   * meanwhile (a revocation that took the lock first) is refused: nothing is issued to it.
   */
  async rotate(em: EntityManager, holder: TokenHolder): Promise<IssuedOpsToken> {
    if (!holder.id || !holder.tokenId) throw forbidden('only the holder of an ops token rotates it');
    return em.transactional(async (tem) => {
      const principal = await this.lockPrincipal(tem, holder.id!);
      const live = await tem.count(OpsToken, { id: holder.tokenId, principal: principal.id, revokedAt: null, expiresAt: { $gt: this.clock.now() } });
      if (!live) throw unauthenticated('invalid or expired token');
      await this.revokeIn(tem, principal);
      return this.issueIn(tem, principal);
    });
  }

  /** `revokeOpsToken`: every token of the principal `name`, under its lock; returns how many. */
  async revokeByName(em: EntityManager, name: unknown): Promise<number> {
    const folded = opsPrincipalName(name);
    return em.transactional(async (tem) => {
      const found = await tem.findOne(OpsPrincipal, { name: folded });
      if (!found) throw notFound(`ops principal ${folded} not found`);
      return this.revokeIn(tem, await this.lockPrincipal(tem, found.id));
    });
  }

  /** The principal named `name` (folded), or NOT_FOUND. */
  async principalNamed(em: EntityManager, name: unknown): Promise<OpsPrincipal> {
    const folded = opsPrincipalName(name);
    const found = await em.findOne(OpsPrincipal, { name: folded });
    if (!found) throw notFound(`ops principal ${folded} not found`);
    return found;
  }

  /** Refuses a name that is already a principal's, saying how its holder gets a credential back. */
  async assertNewName(em: EntityManager, name: unknown): Promise<string> {
    const folded = opsPrincipalName(name);
    if (await em.count(OpsPrincipal, { name: folded })) throw existsConflict(folded);
    return folded;
  }

  /** Every principal with its roles, by name. */
  list(em: EntityManager): Promise<OpsPrincipal[]> {
    return em.find(OpsPrincipal, {}, { orderBy: { name: 'asc' } });
  }

  /**
   * Approved `ops_principal` request: the principal, and its token from the request's first part
   * (`commitment`) and a second part answered here, to the approver.
   */
  async createApproved(em: EntityManager, name: string, roles: readonly string[], commitment: string, createdBy: string): Promise<string> {
    const principal = await this.createPrincipal(em, opsPrincipalName(name), opsRoles(roles), createdBy);
    return this.issueSecondPart(em, principal, commitment);
  }

  /** Approved `ops_token_reset` request: every token of the principal revoked, a new one in two parts (the second answered here). */
  async resetApproved(em: EntityManager, principalId: string, commitment: string): Promise<string> {
    const principal = await this.lockPrincipal(em, principalId);
    await this.revokeIn(em, principal);
    return this.issueSecondPart(em, principal, commitment);
  }

  /** Approved `ops_roles` request: the principal's roles, at once on every instance. */
  async setRolesApproved(em: EntityManager, principalId: string, roles: readonly string[]): Promise<OpsPrincipal> {
    const principal = await this.lockPrincipal(em, principalId);
    await this.setRolesIn(em, principal, opsRoles(roles));
    return principal;
  }

  /**
   * The token's principal when it is valid: issued, not revoked, not expired. Remembered while
   * revocations reach this process (see the class comment); read from the table otherwise.
   */
  async verify(em: EntityManager, token: string): Promise<VerifiedOpsToken | null> {
    if (!this.isOpsToken(token)) return null;
    const key = opsTokenHash(token);
    const now = this.clock.now().getTime();
    const known = this.trusted ? this.known.get(key) : undefined;
    if (known) return known.expiresAt > now ? verified(known) : null;
    const generation = this.generation;
    const row = await unrevokedOpsToken(em, key);
    if (!row) return null;
    const entry = {
      principalId: String(row.principal_id),
      tokenId: String(row.id),
      name: row.name,
      roles: row.roles.filter((r): r is OpsRole => (OPS_ROLES as readonly string[]).includes(r)),
      expiresAt: new Date(row.expires_at).getTime(),
    };
    if (this.trusted && generation === this.generation) {
      if (this.known.size >= CACHE_MAX) this.known.clear();
      this.known.set(key, entry);
    }
    return entry.expiresAt > now ? verified(entry) : null;
  }

  /** Whether remembered tokens may be used: only while every revocation reaches this process. */
  trustCache(trusted: boolean): void {
    this.trusted = trusted;
    this.forget();
  }

  /** Forgets every remembered token (a revocation somewhere, or the table emptied), and tells those holding credentials open. */
  forget(): void {
    this.generation++;
    this.known.clear();
    for (const listener of this.forgetListeners) listener();
  }

  /** `listener` runs whenever remembered tokens are forgotten (graphql-ws checks its open sockets again); returns how to stop. */
  onForget(listener: () => void): () => void {
    this.forgetListeners.add(listener);
    return () => this.forgetListeners.delete(listener);
  }

  /** The listener of this process's committed events: a revocation or a change of roles through any gateway over the ORM. */
  onRevocation(event: Pick<WrittenEvent, 'type'>): void {
    if (event.type === OPS_TOKEN_REVOKED || event.type === OPS_PRINCIPAL_CHANGED) this.forget();
  }

  /** The principal's row, locked (`for update`) until the transaction ends: what serialises everything that ends its tokens. */
  private async lockPrincipal(em: EntityManager, id: string): Promise<OpsPrincipal> {
    if (!(await lockOpsPrincipal(em, id))) throw notFound('ops principal not found');
    return em.findOneOrFail(OpsPrincipal, { id }, { refresh: true });
  }

  private async createPrincipal(em: EntityManager, name: string, roles: OpsRole[], createdBy: string): Promise<OpsPrincipal> {
    // The unique index decides a race between two creations of one name; this answers the usual case by name.
    if (await em.count(OpsPrincipal, { name })) throw existsConflict(name);
    const principal = em.create(OpsPrincipal, { name, roles, createdAt: this.clock.now(), createdBy });
    em.persist(principal);
    await em.flush();
    return principal;
  }

  private async issueIn(em: EntityManager, principal: OpsPrincipal): Promise<IssuedOpsToken> {
    const token = newOpsToken();
    const expiresAt = this.insertToken(em, principal, opsTokenHash(token));
    await em.flush();
    return { name: principal.name, token, expiresAt, roles: [...principal.roles] };
  }

  private async issueSecondPart(em: EntityManager, principal: OpsPrincipal, commitment: string): Promise<string> {
    if (!/^[0-9a-f]{64}$/.test(commitment)) throw badRequest('the request holds no first part of a token');
    const { secondPart, tokenHash } = newSecondPart(commitment);
    this.insertToken(em, principal, tokenHash);
    await em.flush();
    return secondPart;
  }

  private insertToken(em: EntityManager, principal: OpsPrincipal, tokenHash: string): Date {
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + this.ttlSeconds * 1000);
    em.persist(em.create(OpsToken, { principal, tokenHash, createdAt: now, expiresAt }));
    return expiresAt;
  }

  private async setRolesIn(em: EntityManager, principal: OpsPrincipal, roles: OpsRole[]): Promise<void> {
    const before = [...principal.roles];
    principal.roles = roles;
    await em.flush();
    await this.told(em, principal, OPS_PRINCIPAL_CHANGED, { name: principal.name, before, roles });
  }

  private async revokeIn(em: EntityManager, principal: OpsPrincipal): Promise<number> {
    const revoked = await em.nativeUpdate(OpsToken, { principal: principal.id, revokedAt: null }, { revokedAt: this.clock.now() });
    if (revoked) await this.told(em, principal, OPS_TOKEN_REVOKED, { name: principal.name, count: revoked });
    return revoked;
  }

  /** The event every gateway over this ORM hears at commit, and the NOTIFY the others hear. */
  private async told(em: EntityManager, principal: OpsPrincipal, type: string, payload: Record<string, unknown>): Promise<void> {
    appendEvent(em, { type, aggregateType: 'ops_principal', aggregateId: String(principal.id), payload, occurredAt: this.clock.now() });
    await em.flush();
    await notifyOpsTokenChannel(em, OPS_TOKEN_CHANNEL);
  }
}

const verified = (entry: VerifiedOpsToken): VerifiedOpsToken => ({
  principalId: entry.principalId,
  tokenId: entry.tokenId,
  name: entry.name,
  roles: entry.roles,
});

/** A name that is already a principal's: a person gets a credential once, and a lost one back by a reset. */
function existsConflict(name: string) {
  return conflict(
    `ops principal ${name} already exists: a credential is issued once to its own principal; a lost token is reset by requestOpsTokenReset(name: "${name}"), which another admin approves`,
  );
}

/** Roles as given (`--role`, GraphQL): known ones only, at least one, each once. */
export function opsRoles(roles: readonly string[]): OpsRole[] {
  const unknown = roles.filter((r) => !(OPS_ROLES as readonly string[]).includes(r));
  if (unknown.length) throw badRequest(`unknown role ${unknown.join(', ')}: roles are ${OPS_ROLES.join(', ')}`);
  if (!roles.length) throw badRequest(`at least one role is required (${OPS_ROLES.join(', ')})`);
  return [...new Set(roles as OpsRole[])];
}
