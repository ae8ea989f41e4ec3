import { ConfigError, DEVELOPMENT_JWT_SIGNING_KEY, loadConfig } from '../../src/config';
import { STRONG_KEYS } from '../support/production-keys';

describe('JWT settings in the configuration', () => {
  it('development and test get a built-in signing key, 15-minute tokens and 7-day refresh tokens', () => {
    expect(loadConfig({ APP_ENV: 'test' }).jwt).toEqual({
      signingKey: DEVELOPMENT_JWT_SIGNING_KEY,
      issuer: 'fund-distribution-gateway',
      refreshTokenTtlSeconds: 604800,
    });
  });

  it('production requires JWT_SIGNING_KEY, and never accepts the development key', () => {
    expect(() => loadConfig({ APP_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ APP_ENV: 'production' })).toThrow(/JWT_SIGNING_KEY is required when APP_ENV is production/);
    expect(() => loadConfig({ APP_ENV: 'production', JWT_SIGNING_KEY: DEVELOPMENT_JWT_SIGNING_KEY })).toThrow(/must not be the development key/);
    const key = STRONG_KEYS.JWT_SIGNING_KEY;
    const webhookKey = STRONG_KEYS.WEBHOOK_SECRET_KEY;
    expect(
      loadConfig({
        APP_ENV: 'production',
        DATABASE_URL: 'postgres://gateway@db.internal/gateway',
        JWT_SIGNING_KEY: key,
        WEBHOOK_SECRET_KEY: webhookKey,
        METRICS_TOKEN: 'metrics-token-0123456789',
        JWT_ISSUER: 'gw.example',
        REFRESH_TOKEN_TTL_SECONDS: '3600',
      }).jwt,
    ).toEqual({
      signingKey: key,
      issuer: 'gw.example',
      refreshTokenTtlSeconds: 3600,
    });
  });

  it('a short key or an out-of-range refresh lifetime is reported by name', () => {
    expect(() => loadConfig({ APP_ENV: 'test', JWT_SIGNING_KEY: 'short' })).toThrow(/JWT_SIGNING_KEY must be at least 32 characters/);
    expect(() => loadConfig({ APP_ENV: 'test', REFRESH_TOKEN_TTL_SECONDS: '5' })).toThrow(/REFRESH_TOKEN_TTL_SECONDS must be an integer/);
  });
});
