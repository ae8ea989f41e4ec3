import { ConfigError, loadConfig } from '../../src/config';
import { STRONG_KEYS } from '../support/production-keys';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SECRET_SETTINGS } from '../../src/config/secret-settings';
import { SECRET_KINDS } from '../../src/config/secret-generate';

describe('secret settings from files (NAME_FILE)', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'secret-files-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  /** A file holding `text`, as `npm run secret -- <kind> --out` or a mounted secret leaves it. */
  const file = (name: string, text: string, mode = 0o600) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    chmodSync(path, mode);
    return path;
  };
  const problemsOf = (env: NodeJS.ProcessEnv): string[] => {
    try {
      loadConfig(env);
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as Error).message.split('\n').slice(1);
    }
    throw new Error('expected a ConfigError');
  };

  it('reads every secret setting from its file, without the trailing newline', () => {
    // given a production start whose every secret is in a file ending with a newline
    const config = loadConfig({
      APP_ENV: 'production',
      DATABASE_URL_FILE: file('db', 'postgres://gw:pw@db:5432/gw\n'),
      REDIS_URL_FILE: file('redis', 'redis://:pw@redis:6379\r\n'),
      JWT_SIGNING_KEY_FILE: file('jwt', `${STRONG_KEYS.JWT_SIGNING_KEY}\n`),
      WEBHOOK_SECRET_KEY_FILE: file('webhook', `${STRONG_KEYS.WEBHOOK_SECRET_KEY}\n`),
      METRICS_TOKEN_FILE: file('metrics', `${STRONG_KEYS.METRICS_TOKEN}\n`),
      SUPPLY_PROVIDERS_FILE: file('supply', '{}\n'),
      CHAINS_FILE: file('chains', '{}\n'),
    });
    // then each reads as its variable would
    expect(config).toMatchObject({ databaseUrl: 'postgres://gw:pw@db:5432/gw', metricsToken: STRONG_KEYS.METRICS_TOKEN, supplyProviders: {} });
    expect(config.events.redisUrl).toBe('redis://:pw@redis:6379');
    expect(config.jwt.signingKey).toBe(STRONG_KEYS.JWT_SIGNING_KEY);
    expect(config.events.webhookSecretKey.toString('base64')).toBe(STRONG_KEYS.WEBHOOK_SECRET_KEY);
    // (the list the rule covers is the list above: a new secret setting is added to both)
    expect([...SECRET_SETTINGS].sort()).toEqual([
      'CHAINS',
      'DATABASE_URL',
      'JWT_SIGNING_KEY',
      'METRICS_TOKEN',
      'REDIS_URL',
      'SUPPLY_PROVIDERS',
      'WEBHOOK_SECRET_KEY',
    ]);
  });

  it('refuses a setting given both ways, a file that cannot be read, and outside development one others may read', () => {
    expect(
      problemsOf({
        APP_ENV: 'production',
        ...STRONG_KEYS,
        DATABASE_URL: 'postgres://db/gw',
        DATABASE_URL_FILE: file('db-both', 'postgres://db/gw'),
        JWT_SIGNING_KEY: undefined,
        JWT_SIGNING_KEY_FILE: join(dir, 'missing'),
        METRICS_TOKEN: undefined,
        METRICS_TOKEN_FILE: file('metrics-open', STRONG_KEYS.METRICS_TOKEN, 0o644),
      }),
    ).toEqual([
      '  - DATABASE_URL and DATABASE_URL_FILE are both set: set one',
      `  - METRICS_TOKEN_FILE "${join(dir, 'metrics-open')}" is readable by others than its owner (mode 0644): chmod 600 it`,
      `  - JWT_SIGNING_KEY_FILE cannot be read: "${join(dir, 'missing')}"`,
      '  - JWT_SIGNING_KEY is required when APP_ENV is production (only development and test run on the development key)',
    ]);
  });

  it('npm run secret makes each key a production start accepts', () => {
    const config = loadConfig({
      APP_ENV: 'production',
      DATABASE_URL: `postgres://gw:${SECRET_KINDS.password.make()}@db:5432/gw`,
      JWT_SIGNING_KEY_FILE: file('jwt-made', `${SECRET_KINDS.jwt.make()}\n`),
      WEBHOOK_SECRET_KEY_FILE: file('webhook-made', `${SECRET_KINDS.webhook.make()}\n`),
      METRICS_TOKEN_FILE: file('metrics-made', `${SECRET_KINDS.metrics.make()}\n`),
    });
    expect(config.env).toBe('production');
    expect(new URL(config.databaseUrl!).username).toBe('gw');
  });
});
