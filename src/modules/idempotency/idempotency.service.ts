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

interface KeyRow {
  fingerprint: string;
  state: string;
  response_status: number | null;
  response_body: string | null;
  created_at: Date | string;
  expires_at: Date | string;
}

/**
 * The store of Idempotency-Keys, two ways of holding one:
 * - `held` (routes whose writes run in one transaction): the key is held by a transaction-scoped
 *   advisory lock of the transaction that runs the request, and its answer is written in that
 *   same transaction. Whatever ends the transaction (commit, rollback, a connection lost, a
 *   process killed) ends the hold with it, so no key can stay "still being processed" after
 *   its request is gone.
 * - `claim` (routes that call out between their writes, so hold no transaction): the key's row is
 *   inserted `running`; the unique primary key (distributor, key) lets exactly one of concurrent
 *   requests win, which keeps its answer (`done`) or releases the row; a row whose request died
 *   with its process is taken over after IDEMPOTENCY_ABANDONED_MS.
 */
export class IdempotencyService {
  private lastCleanup = 0;

  constructor(private readonly clock: Clock) {}

  /**
   * Inside the transaction that will run the request: holds the key for the transaction's life
   * (409 while another transaction holds it) and answers what is kept for it — `first` (run it),
   * the kept answer (replay), or 422 for the key sent with another request.
   */
  async held(tem: EntityManager, distributorId: string, key: string, fingerprint: string): Promise<Claim> {
    await this.cleanupExpired(tem);
    const [lock] = await tem.execute<{ held: boolean }[]>(`select pg_try_advisory_xact_lock(hashtextextended(?, 0)) as held`, [`${distributorId} ${key}`]);
    if (!lock?.held) throw idempotencyKeyInFlight();
    const row = await this.row(tem, distributorId, key);
    return row ? ((await this.known(tem, distributorId, key, fingerprint, row)) ?? { kind: 'first' }) : { kind: 'first' };
  }

  /** Keeps a held key's answer, in the transaction that holds it. */
  async keep(tem: EntityManager, distributorId: string, key: string, fingerprint: string, status: number, body: string): Promise<void> {
    const now = this.clock.now();
    await tem.execute(
      `insert into idempotency_key (distributor_id, key, fingerprint, state, response_status, response_body, created_at, expires_at)
       values (?, ?, ?, 'done', ?, ?, ?, ?)
       on conflict (distributor_id, key) do update set fingerprint = excluded.fingerprint, state = 'done', response_status = excluded.response_status,
         response_body = excluded.response_body, created_at = excluded.created_at, expires_at = excluded.expires_at`,
      [distributorId, key, fingerprint, status, body, now, new Date(now.getTime() + IDEMPOTENCY_TTL_MS)],
    );
  }

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
      const row = await this.row(em, distributorId, key);
      if (!row) continue; // released meanwhile: claim again
      const known = await this.known(em, distributorId, key, fingerprint, row);
      if (known) return known;
    }
    throw idempotencyKeyInFlight();
  }

  /** Keeps a claimed key's answer for replay: its status and its body's exact text. */
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

  private async row(em: EntityManager, distributorId: string, key: string): Promise<KeyRow | undefined> {
    const [row] = await em.execute<KeyRow[]>(
      `select fingerprint, state, response_status, response_body, created_at, expires_at from idempotency_key where distributor_id = ? and key = ?`,
      [distributorId, key],
    );
    return row;
  }

  /**
   * What a key's row means: its kept answer, 422 (another request's key), 409 (its request still
   * runs), or null when it is expired or abandoned — then it is deleted and the key is free again.
   */
  private async known(em: EntityManager, distributorId: string, key: string, fingerprint: string, row: KeyRow): Promise<Claim | null> {
    const now = this.clock.now();
    const expired = new Date(row.expires_at).getTime() <= now.getTime();
    const abandoned = row.state === 'running' && now.getTime() - new Date(row.created_at).getTime() > IDEMPOTENCY_ABANDONED_MS;
    if (expired || abandoned) {
      // Only the request that removes this very row claims next; a concurrent one finds it gone or new.
      await em.execute(`delete from idempotency_key where distributor_id = ? and key = ? and created_at = ? and state = ?`, [
        distributorId,
        key,
        new Date(row.created_at),
        row.state,
      ]);
      return null;
    }
    if (row.fingerprint !== fingerprint) throw idempotencyKeyReused();
    if (row.state !== 'done') throw idempotencyKeyInFlight();
    return { kind: 'replay', status: Number(row.response_status), body: row.response_body ?? '' };
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
