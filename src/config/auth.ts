import { ConfigError, isDevelopmentEnv, type IntSetting } from './environment';
import { textSecretWeakness, weakSecret } from './secret-strength';

/** Lifetime of an ops token unless OPS_TOKEN_TTL_SECONDS says otherwise: 30 days. */
export const DEFAULT_OPS_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

/** Lifetime of a console session (an ops token exchanged for a cookie) unless CONSOLE_SESSION_TTL_SECONDS says otherwise: a working day. */
export const DEFAULT_CONSOLE_SESSION_TTL_SECONDS = 8 * 3600;

/**
 * How surface-O access tokens are signed (HS256). The key is required outside development and
 * test; there a fixed development key is used so `npm start` and the tests work with nothing set.
 */
export interface JwtConfig {
  /** HMAC key, at least 32 characters (JWT_SIGNING_KEY). */
  signingKey: string;
  /** `iss` and `aud` of the tokens (JWT_ISSUER, default `fund-distribution-gateway`). */
  issuer: string;
  /** Lifetime of a refresh token in seconds (REFRESH_TOKEN_TTL_SECONDS, default 7 days). */
  refreshTokenTtlSeconds: number;
}

/** Development and test only: refused under any other APP_ENV. */
export const DEVELOPMENT_JWT_SIGNING_KEY = 'development-only-signing-key-do-not-use-in-production';

export function developmentJwtConfig(env: string): JwtConfig {
  if (!isDevelopmentEnv(env)) throw new ConfigError(`JWT_SIGNING_KEY is required when APP_ENV is ${env}`);
  return { signingKey: DEVELOPMENT_JWT_SIGNING_KEY, issuer: 'fund-distribution-gateway', refreshTokenTtlSeconds: 7 * 24 * 3600 };
}

/** JWT_SIGNING_KEY (required outside development and test, never the development key there), JWT_ISSUER, REFRESH_TOKEN_TTL_SECONDS. */
export function parseJwt(env: NodeJS.ProcessEnv, appEnv: string, int: IntSetting, problems: string[]): JwtConfig {
  const signingKey = env.JWT_SIGNING_KEY?.trim() || '';
  const realKeys = !isDevelopmentEnv(appEnv);
  if (signingKey && signingKey.length < 32) problems.push('JWT_SIGNING_KEY must be at least 32 characters');
  if (!signingKey && realKeys) problems.push(`JWT_SIGNING_KEY is required when APP_ENV is ${appEnv} (only development and test run on the development key)`);
  if (signingKey === DEVELOPMENT_JWT_SIGNING_KEY && realKeys) problems.push(`JWT_SIGNING_KEY must not be the development key when APP_ENV is ${appEnv}`);
  else if (realKeys && signingKey.length >= 32) {
    // Whoever holds one surface-O token can try keys offline: a key of a plain shape is no key.
    const why = textSecretWeakness(signingKey, 32);
    if (why) problems.push(weakSecret('JWT_SIGNING_KEY', why));
  }
  return {
    signingKey: signingKey || DEVELOPMENT_JWT_SIGNING_KEY,
    issuer: env.JWT_ISSUER?.trim() || 'fund-distribution-gateway',
    refreshTokenTtlSeconds: int('REFRESH_TOKEN_TTL_SECONDS', 7 * 24 * 3600, 60, 90 * 24 * 3600),
  };
}
