import { randomBytes } from 'node:crypto';

/**
 * How each secret setting is made, by `npm run secret -- <kind>` (scripts/secret.ts): the same
 * sizes and encodings as the openssl commands the start's refusals name (secret-strength.ts), so a
 * generated secret always passes the production checks.
 */
export const SECRET_KINDS = {
  /** JWT_SIGNING_KEY: 48 random bytes in base64 (`openssl rand -base64 48`). */
  jwt: { setting: 'JWT_SIGNING_KEY', make: () => randomBytes(48).toString('base64') },
  /** WEBHOOK_SECRET_KEY: exactly 32 random bytes in base64 (`openssl rand -base64 32`). */
  webhook: { setting: 'WEBHOOK_SECRET_KEY', make: () => randomBytes(32).toString('base64') },
  /** METRICS_TOKEN: 32 random bytes in hex (`openssl rand -hex 32`), easy to put in a scraper's header. */
  metrics: { setting: 'METRICS_TOKEN', make: () => randomBytes(32).toString('hex') },
  /** A PostgreSQL or Redis password for DATABASE_URL / REDIS_URL: 24 random bytes, URL-safe base64 (no escaping in a URL). */
  password: { setting: 'DATABASE_URL or REDIS_URL (the password in the URL)', make: () => randomBytes(24).toString('base64url') },
} as const;

export type SecretKind = keyof typeof SECRET_KINDS;

export const isSecretKind = (kind: string): kind is SecretKind => Object.hasOwn(SECRET_KINDS, kind);
