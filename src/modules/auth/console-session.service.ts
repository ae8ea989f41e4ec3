import type { EntityManager } from '@mikro-orm/postgresql';
import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../../common/clock';
import { DEFAULT_CONSOLE_SESSION_TTL_SECONDS } from '../../config';
import { endConsoleSession, insertConsoleSession, liveConsoleSession } from './console-session.queries';
import { OPS_ROLES, type OpsRole } from '../../access/principal';
import type { VerifiedOpsToken } from './ops-token.service';

const PREFIX = 'ocs_';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A session just opened: the cookie's value (shown to the browser once) and when it ends. */
export interface OpenedConsoleSession {
  secret: string;
  expiresAt: Date;
}

/**
 * The console's sessions (docs/console.md#sessions): the page exchanges an ops token ONCE for a
 * random secret the browser keeps as an HttpOnly cookie, so a console URL opened in a new tab is
 * signed in while the session lives, and no script of the page ever holds a credential.
 *
 * A session is its token's: every check reads the token with it (one indexed statement, nothing
 * remembered), so revoking the token (every revocation, rotation and reset ends a principal's
 * tokens) ends its sessions at the same commit, on every instance, and the ops sockets' re-check
 * (OpsTokenService.onForget) closes those opened with the cookie. A session never outlives its
 * token: it expires at the earlier of the two.
 */
export class ConsoleSessionService {
  constructor(
    private readonly clock: Clock,
    readonly ttlSeconds = DEFAULT_CONSOLE_SESSION_TTL_SECONDS,
  ) {}

  /** A new session for a token that just verified (its id). */
  async open(em: EntityManager, tokenId: string): Promise<OpenedConsoleSession> {
    const secret = PREFIX + randomBytes(32).toString('base64url');
    const now = this.clock.now();
    const expiresAt = await insertConsoleSession(em, tokenId, sha256(secret), now, new Date(now.getTime() + this.ttlSeconds * 1000));
    if (!expiresAt) throw new Error('the token ended before its session opened');
    return { secret, expiresAt };
  }

  /** The principal of a session that is live now (and its token too), else null. */
  async verify(em: EntityManager, secret: string): Promise<VerifiedOpsToken | null> {
    if (!secret.startsWith(PREFIX)) return null;
    const now = this.clock.now();
    const row = await liveConsoleSession(em, sha256(secret), now);
    if (!row) return null;
    return {
      principalId: String(row.principal_id),
      tokenId: String(row.token_id),
      name: row.name,
      roles: row.roles.filter((r): r is OpsRole => (OPS_ROLES as readonly string[]).includes(r)),
    };
  }

  /** Signing out: the session ends now (its token lives on); whether there was a live one. */
  async end(em: EntityManager, secret: string): Promise<boolean> {
    return endConsoleSession(em, sha256(secret), this.clock.now());
  }
}
