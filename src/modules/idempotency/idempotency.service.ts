import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../common/clock';
import { idempotencyKeyInFlight, idempotencyKeyReused } from './idempotency.errors';

/** How long a key is remembered (IETF draft and Stripe: 24 hours). */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
/**
 * A first request that has not answered after this long is taken to have died with its process
 * (a crash leaves the row `running`): the next request with the key runs instead of waiting 24 h.
 */
export const IDEMPOTENCY_ABANDONED_MS = 5 * 60_000;
/** Expired keys are deleted at most this often per process, on a write (one indexed delete). */
const CLEANUP_EVERY_MS = 60_000;

/** A replay carries the kept answer's body as the exact text first sent. */
export type Claim = { kind: 'first' } | { kind: 'replay'; status: number; body: string };

/**
 * The store of Idempotency-Keys. A key is claimed by inserting its row (`running`); the unique
 * primary key (distributor, key) lets exactly one of concurrent requests win. The winner runs the
 * request and keeps its answer (`done`), or releases the key when the answer must not be kept.
 */
export class IdempotencyService {
  private lastCleanup = 0;

  constructor(private readonly clock: Clock) {}

  /**
   * The first request with this key claims it; a later one with the same fingerprint gets the
   * kept answer; a different fingerprint answers 422 and a request still running 409.
   */
  async claim(em: EntityManager, distributorId: string, key: string, fingerprint: string): Promise<Claim> {
    await this.cleanupExpired(em);
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = this.clock.now();
      const inserted = await em.execute<{ key: string }[]>(
        `insert into idempotency_key (distributor_id, key, fingerprint, state, created_at, expires_at)
         values (?, ?, ?, 'running', ?, ?) on conflict (distributor_id, key) do nothing returning key`,
        [distributorId, key, fingerprint, now, new Date(now.getTime() + IDEMPOTENCY_TTL_MS)],
      );
      if (inserted.length) return { kind: 'first' };
      const [row] = await em.execute<{ fingerprint: string; state: string; response_status: number | null; response_body: string | null; created_at: Date | string; expires_at: Date | string }[]>(
        `select fingerprint, state, response_status, response_body, created_at, expires_at from idempotency_key where distributor_id = ? and key = ?`,
        [distributorId, key],
      );
      if (!row) continue; // released meanwhile: claim again
      const expired = new Date(row.expires_at).getTime() <= now.getTime();
      const abandoned = row.state === 'running' && now.getTime() - new Date(row.created_at).getTime() > IDEMPOTENCY_ABANDONED_MS;
      if (expired || abandoned) {
        // Only the request that removes this very row claims next; a concurrent one finds it gone or new.
        await em.execute(`delete from idempotency_key where distributor_id = ? and key = ? and created_at = ? and state = ?`, [distributorId, key, new Date(row.created_at), row.state]);
        continue;
      }
      if (row.fingerprint !== fingerprint) throw idempotencyKeyReused();
      if (row.state !== 'done') throw idempotencyKeyInFlight();
      return { kind: 'replay', status: Number(row.response_status), body: row.response_body ?? '' };
    }
    throw idempotencyKeyInFlight();
  }

  /** Keeps the first request's answer for replay: its status and its body's exact text. */
  async complete(em: EntityManager, distributorId: string, key: string, status: number, body: string): Promise<void> {
    await em.execute(`update idempotency_key set state = 'done', response_status = ?, response_body = ? where distributor_id = ? and key = ?`, [
      status,
      body,
      distributorId,
      key,
    ]);
  }

  /** Forgets a claim whose answer is not to be replayed (a server failure: the retry runs anew). */
  async release(em: EntityManager, distributorId: string, key: string): Promise<void> {
    await em.execute(`delete from idempotency_key where distributor_id = ? and key = ? and state = 'running'`, [distributorId, key]);
  }

  /** Deletes expired keys: cheap (the `expires_at` index), at most once a minute per process. */
  async cleanupExpired(em: EntityManager): Promise<number> {
    const now = this.clock.now();
    if (now.getTime() - this.lastCleanup < CLEANUP_EVERY_MS && now.getTime() >= this.lastCleanup) return 0;
    this.lastCleanup = now.getTime();
    const deleted = await em.execute<{ key: string }[]>(`delete from idempotency_key where expires_at <= ? returning key`, [now]);
    return deleted.length;
  }
}
