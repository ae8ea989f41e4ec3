import { createHash } from 'node:crypto';
import type Redis from 'ioredis';
import { redisClient } from '../common/redis-client';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { RateLimited } from '../common/errors';
import { currentScope } from '../common/request-scope';

/**
 * How many attempts a window allows (RATE_LIMIT_*). Token requests cost an scrypt run each and
 * a wrong ops token is a guess: both are counted per key and per client address, so neither one
 * key tried from many addresses nor many keys tried from one address get through.
 */
export interface RateLimitConfig {
  /** `POST /auth/token` and `/auth/refresh` per API key or refresh token (RATE_LIMIT_AUTH_PER_KEY, default 10). */
  authPerKey: number;
  /** The same, per client address (RATE_LIMIT_AUTH_PER_ADDRESS, default 60). */
  authPerAddress: number;
  /** Failed ops-token attempts per client address, GraphQL and graphql-ws (RATE_LIMIT_OPS_FAILURES, default 10). */
  opsFailuresPerAddress: number;
  /** Length of the window in seconds (RATE_LIMIT_WINDOW_SECONDS, default 60). */
  windowSeconds: number;
}

export const DEFAULT_RATE_LIMITS: RateLimitConfig = { authPerKey: 10, authPerAddress: 60, opsFailuresPerAddress: 10, windowSeconds: 60 };

type Bucket = 'auth-key' | 'auth-address' | 'ops-failures';

/** Keys are stored hashed: a secret or a megabyte of junk never becomes a Redis key as sent. */
export const keyOf = (value: string) => createHash('sha256').update(value).digest('base64url').slice(0, 32);

/**
 * The gateway's counters (rate-limiter-flexible): in Redis when REDIS_URL is set, so every
 * instance counts against the same limits, else in this process. Should Redis fail, the
 * counters fall back to this process's (its insurance) rather than letting attempts through.
 */
export class RateLimits {
  private readonly limiters: Record<Bucket, RateLimiterAbstract>;

  private constructor(
    config: RateLimitConfig,
    /** The counters' Redis (null: in process), shared with the quotas (src/access/quotas.ts). */
    readonly redis: Redis | null,
    prefix: string,
  ) {
    const make = (bucket: Bucket, points: number) => counter(redis, `${prefix}rl:${bucket}`, points, config.windowSeconds);
    this.limiters = {
      'auth-key': make('auth-key', config.authPerKey),
      'auth-address': make('auth-address', config.authPerAddress),
      'ops-failures': make('ops-failures', config.opsFailuresPerAddress),
    };
  }

  static create(config: RateLimitConfig, redisUrl: string | null, prefix: string): RateLimits {
    // A count waits for the connection, but through one reconnection at most: a lost Redis then
    // fails it, and the in-process insurance counts instead.
    const redis = redisUrl ? redisClient(redisUrl, 'redis (rate limits; counting in-process meanwhile)', { maxRetriesPerRequest: 1 }).redis : null;
    return new RateLimits(config, redis, prefix);
  }

  /**
   * One token request (`/auth/token`, `/auth/refresh`): counted against its key and against the
   * caller's address; refused with RATE_LIMITED (429, Retry-After) once either is spent.
   */
  async tokenAttempt(key: string | null | undefined): Promise<void> {
    const address = clientAddress();
    await Promise.all([key ? this.take('auth-key', key) : undefined, address ? this.take('auth-address', address) : undefined]);
  }

  /** Refuses an ops token from an address that has failed too often, before checking it. */
  async assertOpsAttemptAllowed(): Promise<void> {
    const address = clientAddress();
    if (!address) return;
    const limiter = this.limiters['ops-failures'];
    const state = await limiter.get(keyOf(address));
    if (state && state.consumedPoints >= limiter.points) throw new RateLimited(seconds(state.msBeforeNext));
  }

  /** Counts a wrong ops token against the caller's address. */
  async opsAttemptFailed(): Promise<void> {
    const address = clientAddress();
    if (!address) return;
    await this.limiters['ops-failures'].consume(keyOf(address)).catch(ignoreRefusal);
  }

  /** At once: a `quit` would wait in the offline queue for a Redis that is away. */
  async close(): Promise<void> {
    this.redis?.disconnect();
  }

  private take(bucket: Bucket, value: string): Promise<void> {
    return consumeOrRefuse(this.limiters[bucket], value);
  }
}

/** One point of `value`'s count, or RATE_LIMITED (429, Retry-After) once the window's are spent. */
export async function consumeOrRefuse(limiter: RateLimiterAbstract, value: string): Promise<void> {
  try {
    await limiter.consume(keyOf(value));
  } catch (refusal) {
    if (refusal instanceof RateLimiterRes) throw new RateLimited(seconds(refusal.msBeforeNext));
    throw refusal;
  }
}

/**
 * `points` per `duration` seconds under a key prefix: in Redis when there is one (every instance
 * counts against the same limit), this process's count as its insurance.
 */
export function counter(redis: Redis | null, keyPrefix: string, points: number, duration: number): RateLimiterAbstract {
  const opts = { keyPrefix, points, duration };
  const memory = new RateLimiterMemory(opts);
  return redis ? new RateLimiterRedis({ ...opts, storeClient: redis, insuranceLimiter: memory }) : memory;
}

export const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

function ignoreRefusal(refusal: unknown): void {
  if (!(refusal instanceof RateLimiterRes)) throw refusal;
}

/** The caller's address, as the door it came through saw it (behind TRUST_PROXY, the forwarded one). */
function clientAddress(): string | undefined {
  return currentScope()?.clientAddress;
}
