import Redis, { type RedisOptions } from 'ioredis';
import { OutageLog } from './outage-log';

/**
 * A Redis client that logs its outages once (lost at warn, back at info) while ioredis
 * reconnects by itself with its own backoff; `disconnect()` ends the reconnecting at once.
 */
export function redisClient(url: string, what: string, options: RedisOptions): { redis: Redis; outage: OutageLog } {
  const redis = new Redis(url, options);
  const outage = new OutageLog(what);
  redis.on('error', (err) => void outage.lost(err));
  redis.on('ready', () => outage.back());
  return { redis, outage };
}
