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
  };
  if (problems.length) throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  return config;
}
