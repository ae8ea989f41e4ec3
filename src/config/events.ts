import { readFileSync } from 'node:fs';
import { coversEveryAddress, parseRange, type IpRange } from '../common/cidr';
import { isDevelopmentEnv, type IntSetting } from './environment';
import { GENERATE_KEY_32_BYTES, keySecretWeakness, weakSecret } from './secret-strength';

/** Events: the relay, webhook delivery and subscriptions. */
export interface EventsConfig {
  /** Redis for subscription fan-out across instances (REDIS_URL); null: in-process PubSub. */
  redisUrl: string | null;
  /** Prefix of the Redis channels, so deployments sharing a Redis stay apart (REDIS_CHANNEL_PREFIX, default `gw:`). */
  redisChannelPrefix: string;
  /** How often the relay and the delivery worker look for work when nothing woke them (EVENT_POLL_MS, default 200). */
  pollMs: number;
  /** Webhook attempts one worker runs at once (WEBHOOK_CONCURRENCY, default 32). */
  webhookConcurrency: number;
  /** Attempts in flight at once towards one webhook, so one slow endpoint cannot take every slot (WEBHOOK_PER_ENDPOINT, default 8). */
  webhookPerEndpoint: number;
  /** Time limit of one attempt (WEBHOOK_TIMEOUT_MS, default 15000). */
  webhookTimeoutMs: number;
  /**
   * Hosts, addresses or CIDR ranges webhooks may reach even though they are loopback, private,
   * link-local, CGNAT, unique-local or cloud metadata (WEBHOOK_ALLOWED_HOSTS, comma-separated;
   * default none). For test receivers and on-premise setups only.
   */
  webhookAllowedHosts: string[];
  /** PEM file of extra CAs trusted for webhook TLS, added to the system roots (WEBHOOK_CA_FILE). */
  webhookCaFile: string | null;
  /**
   * Key that encrypts webhook signing secrets at rest, 32 bytes in base64 (WEBHOOK_SECRET_KEY).
   * Required outside development and test; there a fixed development key is used when unset.
   */
  webhookSecretKey: Buffer;
}

/** The development-only key for webhook secrets at rest; every other APP_ENV must set WEBHOOK_SECRET_KEY. */
const DEVELOPMENT_WEBHOOK_KEY = Buffer.from('fund-distribution-gateway-dev-key!!').subarray(0, 32);

/** REDIS_URL, EVENT_POLL_MS, WEBHOOK_* (the key is required outside development and test). */
export function parseEvents(env: NodeJS.ProcessEnv, appEnv: string, int: IntSetting, problems: string[]): EventsConfig {
  const redisUrl = env.REDIS_URL?.trim() || null;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) problems.push('REDIS_URL must be a redis:// or rediss:// URL');
  const webhookCaFile = env.WEBHOOK_CA_FILE?.trim() || null;
  if (webhookCaFile) {
    try {
      const pem = readFileSync(webhookCaFile, 'utf8');
      if (!pem.includes('-----BEGIN CERTIFICATE-----')) problems.push(`WEBHOOK_CA_FILE must be a PEM certificate file, got "${webhookCaFile}"`);
    } catch {
      problems.push(`WEBHOOK_CA_FILE cannot be read: "${webhookCaFile}"`);
    }
  }
  let webhookSecretKey = DEVELOPMENT_WEBHOOK_KEY;
  const rawKey = env.WEBHOOK_SECRET_KEY?.trim();
  const realKeys = !isDevelopmentEnv(appEnv);
  if (rawKey) {
    const key = Buffer.from(rawKey, 'base64');
    // It encrypts every webhook's signing secret at rest: a key of a plain shape protects none.
    const weak = realKeys ? keySecretWeakness(key, 32) : null;
    if (key.length !== 32) problems.push('WEBHOOK_SECRET_KEY must be 32 bytes in base64');
    else if (realKeys && key.equals(DEVELOPMENT_WEBHOOK_KEY)) problems.push(`WEBHOOK_SECRET_KEY must not be the development key when APP_ENV is ${appEnv}`);
    else if (weak) problems.push(weakSecret('WEBHOOK_SECRET_KEY', weak, GENERATE_KEY_32_BYTES));
    else webhookSecretKey = key;
  } else if (realKeys) {
    problems.push(`WEBHOOK_SECRET_KEY is required when APP_ENV is ${appEnv} (32 bytes in base64; only development and test run on the development key)`);
  }
  return {
    redisUrl,
    redisChannelPrefix: env.REDIS_CHANNEL_PREFIX?.trim() || 'gw:',
    pollMs: int('EVENT_POLL_MS', 200, 10, 60_000),
    webhookConcurrency: int('WEBHOOK_CONCURRENCY', 32, 1, 1000),
    webhookPerEndpoint: int('WEBHOOK_PER_ENDPOINT', 8, 1, 100),
    webhookTimeoutMs: int('WEBHOOK_TIMEOUT_MS', 15_000, 100, 120_000),
    webhookAllowedHosts: parseWebhookAllowedHosts(env.WEBHOOK_ALLOWED_HOSTS, appEnv, problems),
    webhookCaFile,
    webhookSecretKey,
  };
}

/**
 * WEBHOOK_ALLOWED_HOSTS: host names, addresses or ranges. Outside development and test an entry
 * (or the entries together) covering every address would switch the SSRF guard off: refused.
 */
function parseWebhookAllowedHosts(raw: string | undefined, appEnv: string, problems: string[]): string[] {
  const entries = (raw ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (isDevelopmentEnv(appEnv)) return entries;
  const ranges = entries.map((e) => (/^[0-9a-f.:[\]]+(\/\d+)?$/.test(e) ? parseRange(e) : null)).filter((r): r is IpRange => r !== null);
  if (coversEveryAddress(ranges))
    problems.push(`WEBHOOK_ALLOWED_HOSTS "${raw}" covers every address when APP_ENV is ${appEnv} (name the hosts or ranges webhooks may reach)`);
  return entries;
}

/**
 * The development defaults of the events settings, for a gateway built without them (tests,
 * benches). The production entry point (main.ts) always passes the validated `Config.events`.
 */
export function defaultEventsConfig(): EventsConfig {
  return parseEvents({}, 'development', (_name, fallback) => fallback, []);
}
