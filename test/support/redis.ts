import Redis from 'ioredis';

/**
 * The Redis of this machine (REDIS_URL, else 127.0.0.1:6379), required, not optional: .ci/run
 * starts one when none answers, and a test that needs it fails rather than skips without it.
 */
export async function requiredRedis(): Promise<string> {
  const url = process.env.REDIS_URL?.trim() || 'redis://127.0.0.1:6379';
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  const available = await probe.connect().then(
    () => true,
    () => false,
  );
  probe.disconnect();
  if (!available) throw new Error(`Redis not reachable at ${url}: start one (redis-server --port 6379) or set REDIS_URL`);
  return url;
}
