import type { EntityManager } from '@mikro-orm/postgresql';
import { rawRows } from '../../persistence/raw-query';

/**
 * The console sessions' SQL (docs/architecture.md, "SQL").
 *
 * Kept as SQL, no benchmark pays for it: each statement checks the session's token in the same
 * statement that opens, reads or ends the session, so a revocation committed meanwhile is seen.
 */

/** Opens a session for a live token, expiring at the earlier of `until` and the token's expiry; null when the token is no longer live. */
export async function insertConsoleSession(em: EntityManager, tokenId: string, secretHash: string, now: Date, until: Date): Promise<Date | null> {
  const [row] = await rawRows<{ expires_at: Date | string }>(
    em,
    `insert into ops_console_session (token_id, secret_hash, created_at, expires_at)
     select t.id, ?, ?, least(t.expires_at, ?::timestamptz) from ops_token t
      where t.id = ? and t.revoked_at is null and t.expires_at > ?
     returning expires_at`,
    [secretHash, now, until, tokenId, now],
  );
  return row ? new Date(row.expires_at) : null;
}

/** A session's principal, when the session and its token are both live at `now`. */
export interface LiveConsoleSessionRow {
  token_id: string;
  principal_id: string;
  name: string;
  roles: string[];
}

export async function liveConsoleSession(em: EntityManager, secretHash: string, now: Date): Promise<LiveConsoleSessionRow | null> {
  const [row] = await rawRows<LiveConsoleSessionRow>(
    em,
    `select t.id as token_id, t.principal_id, p.name, p.roles
       from ops_console_session s
       join ops_token t on t.id = s.token_id
       join ops_principal p on p.id = t.principal_id
      where s.secret_hash = ? and s.ended_at is null and s.expires_at > ? and t.revoked_at is null and t.expires_at > ?`,
    [secretHash, now, now],
  );
  return row ?? null;
}

/** Ends a live session now; whether there was one. */
export async function endConsoleSession(em: EntityManager, secretHash: string, now: Date): Promise<boolean> {
  const [row] = await rawRows<{ id: string }>(em, 'update ops_console_session set ended_at = ? where secret_hash = ? and ended_at is null returning id', [
    now,
    secretHash,
  ]);
  return !!row;
}
