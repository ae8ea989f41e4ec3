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
  /** Surface-O access tokens (JWT_SIGNING_KEY, JWT_ISSUER, REFRESH_TOKEN_TTL_SECONDS). */
  jwt: JwtConfig;
}

/**
 * How surface-O access tokens are signed (HS256). The key is required in production; elsewhere
 * a fixed development key is used so `npm start` and the tests work with nothing set.
 */
export interface JwtConfig {
  /** HMAC key, at least 32 characters (JWT_SIGNING_KEY). */
  signingKey: string;
  /** `iss` and `aud` of the tokens (JWT_ISSUER, default `fund-distribution-gateway`). */
  issuer: string;
  /** Lifetime of a refresh token in seconds (REFRESH_TOKEN_TTL_SECONDS, default 7 days). */
  refreshTokenTtlSeconds: number;
}

/** Development and test only: never accepted when APP_ENV is production. */
export const DEVELOPMENT_JWT_SIGNING_KEY = 'development-only-signing-key-do-not-use-in-production';

export function developmentJwtConfig(env: string): JwtConfig {
  if (env === 'production') throw new ConfigError('JWT_SIGNING_KEY is required in production');
  return { signingKey: DEVELOPMENT_JWT_SIGNING_KEY, issuer: 'fund-distribution-gateway', refreshTokenTtlSeconds: 7 * 24 * 3600 };
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
  } as Config;
  const signingKey = env.JWT_SIGNING_KEY?.trim() || '';
  if (signingKey && signingKey.length < 32) problems.push('JWT_SIGNING_KEY must be at least 32 characters');
  if (!signingKey && appEnv === 'production') problems.push('JWT_SIGNING_KEY is required in production');
  if (signingKey === DEVELOPMENT_JWT_SIGNING_KEY && appEnv === 'production') problems.push('JWT_SIGNING_KEY must not be the development key in production');
  config.jwt = {
    signingKey: signingKey || DEVELOPMENT_JWT_SIGNING_KEY,
    issuer: env.JWT_ISSUER?.trim() || 'fund-distribution-gateway',
    refreshTokenTtlSeconds: int('REFRESH_TOKEN_TTL_SECONDS', 7 * 24 * 3600, 60, 90 * 24 * 3600),
  };
  if (problems.length) throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  return config;
}
