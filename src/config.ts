import type { SupplyProvidersConfig } from './supply/provider';

/**
 * The gateway's configuration, read from the environment once at start and validated, so a
 * mistake is reported by name before anything listens.
 */
export interface Config {
  /** HTTP port (PORT, default 4000; 0 picks a free one). */
  port: number;
  /** Interface to listen on (HOST, default 0.0.0.0). */
  host: string;
  /** PostgreSQL URL (DATABASE_URL). Unset: an embedded PostgreSQL persisted in `dataDir`. */
  databaseUrl: string | null;
  /** Folder of the embedded database (DATA_DIR, default `.data/pglite`). */
  dataDir: string;
  /** Environment name reported by /health (APP_ENV, default `development`). */
  env: string;
  /** pino level (LOG_LEVEL: fatal, error, warn, info, debug, trace, silent; default info). */
  logLevel: string;
  /** Seed demo data into an empty database (SEED_DEMO; default true in development). */
  seedDemo: boolean;
  /** Database connection pool size (DB_POOL_MAX, default 10). */
  dbPoolMax: number;
  /** Largest accepted request body (BODY_LIMIT, default `100kb`). */
  bodyLimit: string;
  /**
   * Supply-side platforms by provider id (SUPPLY_PROVIDERS, a JSON object:
   * `{"<id>": {"url": "https://…", "timeoutMs": 10000, "apiKey": "…", "callbackSecret": "…"}}`).
   * A share class's `provider` names one of them; pushes go to its `url`.
   */
  supplyProviders: SupplyProvidersConfig;
  /**
   * Start the provider simulator on a free loopback port and configure it as `supply-sim` when no
   * provider is configured (SUPPLY_SIMULATOR; default true in development).
   */
  supplySimulator: boolean;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const int = (name: string, fallback: number, min: number, max: number) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) problems.push(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
    return n;
  };
  const bool = (name: string, fallback: boolean) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
    if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
    problems.push(`${name} must be true or false, got "${raw}"`);
    return fallback;
  };

  const databaseUrl = env.DATABASE_URL?.trim() || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  const logLevel = (env.LOG_LEVEL || 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);
  const appEnv = env.APP_ENV?.trim() || 'development';
  if (!/^[a-z0-9][a-z0-9_-]*$/i.test(appEnv)) problems.push(`APP_ENV must be a simple name such as production, got "${appEnv}"`);
  const bodyLimit = env.BODY_LIMIT?.trim() || '100kb';
  if (!/^\d+(b|kb|mb)$/i.test(bodyLimit)) problems.push(`BODY_LIMIT must look like 100kb or 1mb, got "${bodyLimit}"`);

  const config: Config = {
    port: int('PORT', 4000, 0, 65535),
    host: env.HOST?.trim() || '0.0.0.0',
    databaseUrl,
    dataDir: env.DATA_DIR?.trim() || '.data/pglite',
    env: appEnv,
    logLevel,
    seedDemo: bool('SEED_DEMO', appEnv === 'development'),
    dbPoolMax: int('DB_POOL_MAX', 10, 1, 200),
    bodyLimit,
    supplyProviders: parseSupplyProviders(env.SUPPLY_PROVIDERS, problems),
    supplySimulator: bool('SUPPLY_SIMULATOR', appEnv === 'development'),
  };
  if (problems.length) throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  return config;
}

/** SUPPLY_PROVIDERS: provider id → { url, timeoutMs?, apiKey?, callbackSecret? }, every mistake named. */
function parseSupplyProviders(raw: string | undefined, problems: string[]): SupplyProvidersConfig {
  if (raw === undefined || raw.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    problems.push('SUPPLY_PROVIDERS must be a JSON object of provider id to {url, timeoutMs, apiKey, callbackSecret}');
    return {};
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    problems.push('SUPPLY_PROVIDERS must be a JSON object of provider id to {url, timeoutMs, apiKey, callbackSecret}');
    return {};
  }
  const out: SupplyProvidersConfig = {};
  for (const [id, value] of Object.entries(parsed as Record<string, unknown>)) {
    const at = `SUPPLY_PROVIDERS.${id}`;
    if (!/^[a-z0-9][a-z0-9._-]{0,62}$/i.test(id)) problems.push(`SUPPLY_PROVIDERS key "${id}" must be a simple provider id`);
    const v = (value ?? {}) as Record<string, unknown>;
    if (typeof v.url !== 'string' || !/^https?:\/\/[^\s]+$/.test(v.url)) problems.push(`${at}.url must be an http(s) URL`);
    const timeoutMs = v.timeoutMs === undefined ? 10_000 : v.timeoutMs;
    if (typeof timeoutMs !== 'number' || !Number.isInteger(timeoutMs) || timeoutMs < 50 || timeoutMs > 120_000) problems.push(`${at}.timeoutMs must be an integer from 50 to 120000`);
    if (v.apiKey !== undefined && (typeof v.apiKey !== 'string' || v.apiKey === '')) problems.push(`${at}.apiKey must be a non-empty string`);
    if (v.callbackSecret !== undefined && (typeof v.callbackSecret !== 'string' || v.callbackSecret.length < 16)) problems.push(`${at}.callbackSecret must be a string of at least 16 characters`);
    out[id] = { url: String(v.url), timeoutMs: Number(timeoutMs), apiKey: v.apiKey as string | undefined, callbackSecret: v.callbackSecret as string | undefined };
  }
  return out;
}
