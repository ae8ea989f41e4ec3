import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import { logger } from '../common/logger';

/**
 * Counts of things held open (sockets, subscriptions) under a key, each key with a ceiling. In
 * Redis when REDIS_URL is set, so every gateway counts against one ceiling: a key is a sorted set
 * of hold ids scored by when each lapses. A live process renews its holds every RENEW_MS; a
 * process that dies (SIGKILL) stops renewing, and its holds lapse within HOLD_TTL_MS instead of
 * counting for ever. Should Redis fail, this process's own counts decide (as the rate limits'
 * insurance does) rather than letting everything through.
 */
export const HOLD_TTL_MS = 30_000;
const RENEW_MS = 10_000;

/** Drops lapsed holds, then adds one if the key is below its ceiling: 1 taken, 0 refused. */
const TAKE = `
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ms)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ms + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]))
return 1`;

/** Pushes the lapse of the listed holds (ARGV[2..]) of one key ARGV[1] ms ahead, where they still exist. */
const RENEW = `
local now = redis.call('TIME')
local until_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) + tonumber(ARGV[1])
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], 'XX', until_ms, ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1]))
return 1`;

export interface Ceiling {
  key: string;
  limit: number;
}

export class OpenHolds {
  /** This process's holds by key (the renewal list, and the count when Redis is away). */
  private readonly local = new Map<string, Set<string>>();
  private readonly timer: NodeJS.Timeout | null;

  constructor(
    private readonly redis: Redis | null,
    private readonly prefix: string,
  ) {
    this.timer = redis ? setInterval(() => void this.renew(), RENEW_MS).unref() : null;
  }

  /**
   * Takes one hold under every ceiling, or none: the index of the first ceiling that is full,
   * else a release function (idempotent).
   */
  async take(ceilings: Ceiling[]): Promise<{ refused: number } | { release: () => Promise<void> }> {
    const id = randomUUID();
    const taken: string[] = [];
    const release = async () => {
      const keys = taken.splice(0);
      for (const key of keys) this.local.get(key)?.delete(id);
      if (this.redis && keys.length) await Promise.all(keys.map((key) => this.redis!.zrem(this.prefix + key, id).catch(() => undefined)));
    };
    for (const [index, ceiling] of ceilings.entries()) {
      if (!(await this.takeOne(ceiling, id))) {
        await release();
        return { refused: index };
      }
      taken.push(ceiling.key);
      let mine = this.local.get(ceiling.key);
      if (!mine) this.local.set(ceiling.key, (mine = new Set()));
      mine.add(id);
    }
    return { release };
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
  }

  private async takeOne(ceiling: Ceiling, id: string): Promise<boolean> {
    if (this.redis) {
      try {
        return (await this.redis.eval(TAKE, 1, this.prefix + ceiling.key, id, ceiling.limit, HOLD_TTL_MS)) === 1;
      } catch (err) {
        logger.warn({ err: (err as Error).message }, 'redis unreachable: open sockets and subscriptions counted in this process');
      }
    }
    return (this.local.get(ceiling.key)?.size ?? 0) < ceiling.limit;
  }

  private async renew(): Promise<void> {
    for (const [key, ids] of this.local) {
      if (!ids.size) {
        this.local.delete(key);
        continue;
      }
      await this.redis!.eval(RENEW, 1, this.prefix + key, HOLD_TTL_MS, ...ids).catch(() => undefined);
    }
  }
}
