import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../common/clock';
import { DEFAULT_OPS_TOKEN_TTL_SECONDS } from '../../config';
import { rawRows } from '../../persistence/raw-query';
import { appendEvent, type WrittenEvent } from '../../events/event-log';
import type { IssuedOpsToken } from './auth.types';
import { OpsToken } from './ops-token.entity';
import { badRequest } from '../../common/errors';
import { OPS_ROLES, type OpsRole } from '../../access/principal';

const PREFIX = 'ops_';

/** The NOTIFY channel a revocation speaks on, in its own transaction (delivered at its commit). */
export const OPS_TOKEN_CHANNEL = 'gateway_ops_token';
/** The event a revocation appends (src/events/event-log.ts): it drops the cache of every gateway over this ORM. */
export const OPS_TOKEN_REVOKED = 'ops_token.revoked';
/** Tokens remembered at most (a few are in use; the bound keeps a flood of valid-looking ones harmless). */
const CACHE_MAX = 1_000;

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Bearer tokens of the ops console: 32 random bytes, shown once, stored as SHA-256, valid until
 * their expiry (OPS_TOKEN_TTL_SECONDS) or revocation.
 *
 * The check costs no statement per request: a valid token is remembered in this process with its
 * expiry, and forgotten whenever any token is revoked, on every instance at once:
 * - a revocation appends `ops_token.revoked` and sends NOTIFY `gateway_ops_token` in its own
 *   transaction; this process's gateways hear the event at commit (`onRevocation`), the others
 *   over their LISTEN connection (src/modules/auth/ops-token-revocations.ts);
 * - the memory is trusted only while revocations can reach it (`trustCache`): with a PostgreSQL
 *   server, while the LISTEN connection is up; on the embedded database, which one process
 *   opens, always. Otherwise every request reads the table, as before;
 * - a read that began before a revocation is not remembered (the generation moved meanwhile).
 */
export class OpsTokenService {
  private readonly known = new Map<string, { name: string; roles: OpsRole[]; expiresAt: number }>();
  private generation = 0;
  private trusted = false;

  constructor(
    private readonly clock: Clock,
    private readonly ttlSeconds = DEFAULT_OPS_TOKEN_TTL_SECONDS,
  ) {}

  isOpsToken(token: string): boolean {
    return token.startsWith(PREFIX);
  }

  /** A new token for `name` with `roles` (at least one), valid for OPS_TOKEN_TTL_SECONDS. */
  issue(em: EntityManager, name: string, roles: readonly string[]): Promise<IssuedOpsToken> {
    return this.issueIn(em, name, opsRoles(roles));
  }

  /**
   * Rotation: a new token for `name`, and every other token of that name revoked, in one
   * transaction. The old ones stop working at once on every instance (open sockets at their
   * next check).
   */
  async rotate(em: EntityManager, name: string, roles?: readonly string[]): Promise<IssuedOpsToken> {
    return em.transactional(async (tem) => {
      // The new token keeps the roles the name had (the union of its live tokens'), unless told.
      const kept =
        roles ??
        (await rawRows<{ role: string }>(tem, 'select distinct unnest(roles) as role from ops_token where name = ? and revoked_at is null', [name])).map(
          (r) => r.role,
        );
      await this.revokeIn(tem, name);
      return this.issueIn(tem, name, opsRoles(kept));
    });
  }

  /**
   * The token's name when it is valid: issued, not revoked, not expired. Remembered while
   * revocations reach this process (see the class comment); read from the table otherwise.
   */
  async verify(em: EntityManager, token: string): Promise<{ name: string; roles: OpsRole[] } | null> {
    if (!this.isOpsToken(token)) return null;
    const key = hash(token);
    const now = this.clock.now().getTime();
    const known = this.trusted ? this.known.get(key) : undefined;
    if (known) return known.expiresAt > now ? { name: known.name, roles: known.roles } : null;
    const generation = this.generation;
    const [row] = await rawRows<{ name: string; roles: string[]; expires_at: Date | string }>(
      em,
      'select name, roles, expires_at from ops_token where token_hash = ? and revoked_at is null',
      [key],
    );
    if (!row) return null;
    const expiresAt = new Date(row.expires_at).getTime();
    const roles = row.roles.filter((r): r is OpsRole => (OPS_ROLES as readonly string[]).includes(r));
    if (this.trusted && generation === this.generation) {
      if (this.known.size >= CACHE_MAX) this.known.clear();
      this.known.set(key, { name: row.name, roles, expiresAt });
    }
    return expiresAt > now ? { name: row.name, roles } : null;
  }

  /** Revokes every token of `name`; returns how many. */
  async revokeByName(em: EntityManager, name: string): Promise<number> {
    return em.transactional((tem) => this.revokeIn(tem, name));
  }

  /** Whether remembered tokens may be used: only while every revocation reaches this process. */
  trustCache(trusted: boolean): void {
    this.trusted = trusted;
    this.forget();
  }

  /** Forgets every remembered token (a revocation somewhere, or the table emptied). */
  forget(): void {
    this.generation++;
    this.known.clear();
  }

  /** The listener of this process's committed events: a revocation through any gateway over the ORM. */
  onRevocation(event: Pick<WrittenEvent, 'type'>): void {
    if (event.type === OPS_TOKEN_REVOKED) this.forget();
  }

  private async issueIn(em: EntityManager, name: string, roles: OpsRole[]): Promise<IssuedOpsToken> {
    const token = PREFIX + randomBytes(32).toString('base64url');
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + this.ttlSeconds * 1000);
    if (!name.trim()) throw badRequest('name is required');
    em.persist(em.create(OpsToken, { name, tokenHash: hash(token), roles, createdAt: now, expiresAt }));
    await em.flush();
    return { name, token, expiresAt, roles };
  }

  private async revokeIn(em: EntityManager, name: string): Promise<number> {
    const now = this.clock.now();
    const revoked = await em.nativeUpdate(OpsToken, { name, revokedAt: null }, { revokedAt: now });
    if (!revoked) return 0;
    appendEvent(em, { type: OPS_TOKEN_REVOKED, aggregateType: 'ops_token', aggregateId: name, payload: { name, count: revoked }, occurredAt: now });
    await em.flush();
    await em.execute(`select pg_notify('${OPS_TOKEN_CHANNEL}', '')`);
    return revoked;
  }
}

/** Roles as given (`--role`, GraphQL): known ones only, at least one, each once. */
export function opsRoles(roles: readonly string[]): OpsRole[] {
  const unknown = roles.filter((r) => !(OPS_ROLES as readonly string[]).includes(r));
  if (unknown.length) throw badRequest(`unknown role ${unknown.join(', ')}: roles are ${OPS_ROLES.join(', ')}`);
  if (!roles.length) throw badRequest(`at least one role is required (${OPS_ROLES.join(', ')})`);
  return [...new Set(roles as OpsRole[])];
}
