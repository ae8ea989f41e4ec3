import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The idempotency module's SQL (docs/architecture.md, "SQL"). Kept as SQL, no benchmark pays for
 * it: the key store is concurrency control, and its statements are what decide a race — a
 * transaction-scoped advisory lock, `insert … on conflict` (do nothing / do update), deletes
 * conditioned on the row a request saw, which the entity (idempotency-key.entity.ts) would turn into
 * a read and a unit of work.
 */

export interface IdempotencyKeyRow {
  fingerprint: string;
  state: string;
  response_status: number | null;
  response_body: string | null;
  created_at: Date | string;
  expires_at: Date | string;
}

/** Takes the key's transaction-scoped advisory lock if it is free: false when another transaction holds it. */
export async function tryLockIdempotencyKey(tem: EntityManager, distributorId: string, key: string): Promise<boolean> {
  const [lock] = await tem.execute<{ held: boolean }[]>(`select pg_try_advisory_xact_lock(hashtextextended(?, 0)) as held`, [`${distributorId} ${key}`]);
  return lock?.held === true;
}

export async function idempotencyKeyRow(em: EntityManager, distributorId: string, key: string): Promise<IdempotencyKeyRow | undefined> {
  const [row] = await em.execute<IdempotencyKeyRow[]>(
    `select fingerprint, state, response_status, response_body, created_at, expires_at from idempotency_key where distributor_id = ? and key = ?`,
    [distributorId, key],
  );
  return row;
}

/** The key's answer, `done`, whatever row was there (a held key: the advisory lock is the claim). */
export async function upsertDoneIdempotencyKey(
  tem: EntityManager,
  row: { distributorId: string; key: string; fingerprint: string; status: number; body: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await tem.execute(
    `insert into idempotency_key (distributor_id, key, fingerprint, state, response_status, response_body, created_at, expires_at)
     values (?, ?, ?, 'done', ?, ?, ?, ?)
     on conflict (distributor_id, key) do update set fingerprint = excluded.fingerprint, state = 'done', response_status = excluded.response_status,
       response_body = excluded.response_body, created_at = excluded.created_at, expires_at = excluded.expires_at`,
    [row.distributorId, row.key, row.fingerprint, row.status, row.body, row.createdAt, row.expiresAt],
  );
}

/** Inserts the key `running` unless it exists: true when this call inserted it (the unique key decides a race). */
export async function insertRunningIdempotencyKey(
  em: EntityManager,
  row: { distributorId: string; key: string; fingerprint: string; createdAt: Date; expiresAt: Date },
): Promise<boolean> {
  const inserted = await em.execute<{ key: string }[]>(
    `insert into idempotency_key (distributor_id, key, fingerprint, state, created_at, expires_at)
     values (?, ?, ?, 'running', ?, ?) on conflict (distributor_id, key) do nothing returning key`,
    [row.distributorId, row.key, row.fingerprint, row.createdAt, row.expiresAt],
  );
  return inserted.length > 0;
}

export async function completeIdempotencyKey(em: EntityManager, distributorId: string, key: string, status: number, body: string): Promise<void> {
  await em.execute(`update idempotency_key set state = 'done', response_status = ?, response_body = ? where distributor_id = ? and key = ?`, [
    status,
    body,
    distributorId,
    key,
  ]);
}

export async function deleteRunningIdempotencyKey(em: EntityManager, distributorId: string, key: string): Promise<void> {
  await em.execute(`delete from idempotency_key where distributor_id = ? and key = ? and state = 'running'`, [distributorId, key]);
}

/** Deletes the very row a request saw (its creation time and state), so only that request claims next. */
export async function deleteSeenIdempotencyKey(em: EntityManager, distributorId: string, key: string, createdAt: Date, state: string): Promise<void> {
  await em.execute(`delete from idempotency_key where distributor_id = ? and key = ? and created_at = ? and state = ?`, [distributorId, key, createdAt, state]);
}

/** Deletes every expired key (the `expires_at` index); how many. */
export async function deleteExpiredIdempotencyKeys(em: EntityManager, now: Date): Promise<number> {
  const deleted = await em.execute<{ key: string }[]>(`delete from idempotency_key where expires_at <= ? returning key`, [now]);
  return deleted.length;
}
