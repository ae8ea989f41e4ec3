import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../common/clock';
import { idempotencyKeyInFlight, idempotencyKeyReused } from './idempotency.errors';
import {
  completeIdempotencyKey,
  deleteExpiredIdempotencyKeys,
  deleteRunningIdempotencyKey,
  deleteSeenIdempotencyKey,
  idempotencyKeyRow,
  insertRunningIdempotencyKey,
  tryLockIdempotencyKey,
  upsertDoneIdempotencyKey,
  type IdempotencyKeyRow,
} from './idempotency.queries';

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
    if (!(await tryLockIdempotencyKey(tem, distributorId, key))) throw idempotencyKeyInFlight();
    const row = await this.row(tem, distributorId, key);
    return row ? ((await this.known(tem, distributorId, key, fingerprint, row)) ?? { kind: 'first' }) : { kind: 'first' };
  }

  /** Keeps a held key's answer, in the transaction that holds it. */
  async keep(tem: EntityManager, distributorId: string, key: string, fingerprint: string, status: number, body: string): Promise<void> {
    const now = this.clock.now();
    await upsertDoneIdempotencyKey(tem, {
      distributorId,
      key,
      fingerprint,
      status,
      body,
      createdAt: now,
      expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
    });
  }

  /**
   * The first request with this key claims it; a later one with the same fingerprint gets the
   * kept answer; a different fingerprint answers 422 and a request still running 409.
   */
  async claim(em: EntityManager, distributorId: string, key: string, fingerprint: string): Promise<Claim> {
    await this.cleanupExpired(em);
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = this.clock.now();
      const inserted = await insertRunningIdempotencyKey(em, {
        distributorId,
        key,
        fingerprint,
        createdAt: now,
        expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
      });
      if (inserted) return { kind: 'first' };
      const row = await this.row(em, distributorId, key);
      if (!row) continue; // released meanwhile: claim again
      const known = await this.known(em, distributorId, key, fingerprint, row);
      if (known) return known;
    }
    throw idempotencyKeyInFlight();
  }

  /** Keeps a claimed key's answer for replay: its status and its body's exact text. */
  async complete(em: EntityManager, distributorId: string, key: string, status: number, body: string): Promise<void> {
    await completeIdempotencyKey(em, distributorId, key, status, body);
  }

  /** Forgets a claim whose answer is not to be replayed (a server failure: the retry runs anew). */
  async release(em: EntityManager, distributorId: string, key: string): Promise<void> {
    await deleteRunningIdempotencyKey(em, distributorId, key);
  }

  private async row(em: EntityManager, distributorId: string, key: string): Promise<IdempotencyKeyRow | undefined> {
    return idempotencyKeyRow(em, distributorId, key);
  }

  /**
   * What a key's row means: its kept answer, 422 (another request's key), 409 (its request still
   * runs), or null when it is expired or abandoned — then it is deleted and the key is free again.
   */
  private async known(em: EntityManager, distributorId: string, key: string, fingerprint: string, row: IdempotencyKeyRow): Promise<Claim | null> {
    const now = this.clock.now();
    const expired = new Date(row.expires_at).getTime() <= now.getTime();
    const abandoned = row.state === 'running' && now.getTime() - new Date(row.created_at).getTime() > IDEMPOTENCY_ABANDONED_MS;
    if (expired || abandoned) {
      // Only the request that removes this very row claims next; a concurrent one finds it gone or new.
      await deleteSeenIdempotencyKey(em, distributorId, key, new Date(row.created_at), row.state);
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
    return deleteExpiredIdempotencyKeys(em, now);
  }
}
