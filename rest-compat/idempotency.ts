import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Access } from '../src/access/access';
import type { IdempotencyService } from '../src/modules/idempotency/idempotency.service';
import { invalidIdempotencyKey } from '../src/modules/idempotency/idempotency.errors';
import type { RestOutcome } from './executor';

/*
 * `Idempotency-Key` on the POSTs of both surfaces (IETF draft "The Idempotency-Key HTTP Header
 * Field", as Stripe applies it): a step of the router around running a route. Without the
 * header nothing changes.
 */

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** The keys a caller sends are 1 to 255 printable ASCII characters. */
const KEY_FORMAT = /^[\x20-\x7e]{1,255}$/;

/**
 * Whose keys these are: the calling distributor's. Callers without one (the token endpoints,
 * which allocate nothing) are not covered: their key is ignored.
 */
const idempotencyOwner = (access: Access): string | null => access.ownDistributorId;

/** Same method, same path, same body (keys sorted at every depth): the same request. */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([method, path, canonical(body)]))
    .digest('hex');
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** What the key covers of a request: its `Idempotency-Key`, method, path as sent (the prefix included) and body. */
export interface IdempotentRequest {
  key: string | undefined;
  method: string;
  path: string;
  body: unknown;
}

/** An answer ready to send: its body already written as JSON text, the same bytes a replay sends. */
export interface IdempotentOutcome {
  status: number;
  json: string;
  headers?: Record<string, string>;
  replayed?: boolean;
}

/** The outcome as the bytes to send; a kept answer is these bytes, so its replay is byte for byte the same. */
const written = (o: RestOutcome): IdempotentOutcome => ({ status: o.status, json: JSON.stringify(o.body), ...(o.headers && { headers: o.headers }) });

/**
 * Runs `run` at most once per (distributor, key) within 24 hours: the first request runs and
 * its answer is kept, status and body text; the same request again gets exactly those bytes,
 * marked replayed; another request with the key answers 422; one arriving while the first still
 * runs, 409. Server failures (5xx) and 429s are not kept, so a retry runs anew.
 *
 * A route whose writes run in one transaction (`atomic`) holds the key in that transaction and
 * keeps its answer there (IdempotencyService.held): a connection lost while committing leaves
 * either the order and its answer (a retry replays it) or neither and no hold (a retry runs
 * anew), never an order without its answer nor a key stuck "still being processed". A route that
 * calls out between its writes (`atomic: false`) claims the key by a row and keeps its answer
 * after it instead.
 */
export async function idempotent(
  store: IdempotencyService,
  em: EntityManager,
  req: IdempotentRequest,
  access: Access,
  run: (em: EntityManager) => Promise<RestOutcome>,
  options: { atomic: boolean },
): Promise<IdempotentOutcome> {
  const key = req.key;
  const owner = idempotencyOwner(access);
  if (req.method !== 'POST' || key === undefined || owner === null) return written(await run(em));
  if (!KEY_FORMAT.test(key) || key.trim() === '') throw invalidIdempotencyKey();
  const fingerprint = requestFingerprint(req.method, req.path, req.body);
  if (options.atomic) return runHoldingKey(store, em, owner, key, fingerprint, run);
  const claim = await store.claim(em, owner, key, fingerprint);
  if (claim.kind === 'replay') return replay(claim);
  let outcome: IdempotentOutcome;
  try {
    outcome = written(await run(em));
  } catch (err) {
    // Unknown whether it committed: a kept answer (it did) survives the release; a running claim (it did not) is freed.
    await store.release(em, owner, key);
    throw err;
  }
  if (!isKept(outcome)) await store.release(em, owner, key);
  else await store.complete(em, owner, key, outcome.status, outcome.json);
  return outcome;
}

const replay = (claim: { status: number; body: string }): IdempotentOutcome => ({ status: claim.status, json: claim.body, replayed: true });

const isSuccess = (outcome: { status: number }) => outcome.status >= 200 && outcome.status < 300;

/** Answers kept for the key: not a server failure, nor a refusal that says "later" (429): a retry then runs anew. */
const isKept = (outcome: { status: number }) => outcome.status < 500 && outcome.status !== 429;

/** An answer that is not a success: its writes roll back (a refused request writes nothing). */
class NotASuccess extends Error {
  constructor(readonly outcome: IdempotentOutcome) {
    super('not a success');
  }
}

/**
 * One transaction holds the key, runs the request and keeps its answer. A refusal's writes are
 * rolled back to a savepoint and the refusal is kept (a retry gets the same 4xx); a server
 * failure, or a quota's 429, keeps nothing.
 */
async function runHoldingKey(
  store: IdempotencyService,
  em: EntityManager,
  owner: string,
  key: string,
  fingerprint: string,
  run: (em: EntityManager) => Promise<RestOutcome>,
): Promise<IdempotentOutcome> {
  return em.transactional(async (tem) => {
    const held = await store.held(tem, owner, key, fingerprint);
    if (held.kind === 'replay') return replay(held);
    let outcome: IdempotentOutcome;
    try {
      outcome = await tem.transactional(async (sem) => {
        const o = written(await run(sem));
        if (!isSuccess(o)) throw new NotASuccess(o);
        return o;
      });
    } catch (err) {
      if (!(err instanceof NotASuccess)) throw err;
      outcome = err.outcome;
    }
    if (isKept(outcome)) await store.keep(tem, owner, key, fingerprint, outcome.status, outcome.json);
    return outcome;
  });
}
