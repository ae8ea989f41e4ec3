import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../common/clock';
import { rawRows } from '../../common/raw-query';
import { OpsToken } from './ops-token.entity';

const PREFIX = 'ops_';

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/** Bearer tokens of the ops console: 32 random bytes, shown once, stored as SHA-256. */
export class OpsTokenService {
  constructor(private readonly clock: Clock) {}

  isOpsToken(token: string): boolean {
    return token.startsWith(PREFIX);
  }

  async issue(em: EntityManager, name: string): Promise<string> {
    const token = PREFIX + randomBytes(32).toString('base64url');
    em.persist(em.create(OpsToken, { name, tokenHash: hash(token), createdAt: this.clock.now() }));
    await em.flush();
    return token;
  }

  /**
   * The token's name when it is valid and not revoked. Asked on every ops request, never cached
   * (a revocation holds at once): a plain statement, cheaper than the ORM's findOne
   * (docs/benchmarks.md).
   */
  async verify(em: EntityManager, token: string): Promise<string | null> {
    if (!this.isOpsToken(token)) return null;
    const [row] = await rawRows<{ name: string }>(em, 'select name from ops_token where token_hash = ? and revoked_at is null', [hash(token)]);
    return row ? row.name : null;
  }

  async revokeByName(em: EntityManager, name: string): Promise<number> {
    return em.nativeUpdate(OpsToken, { name, revokedAt: null }, { revokedAt: this.clock.now() });
  }
}
