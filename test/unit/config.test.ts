import { ConfigError, DEVELOPMENT_JWT_SIGNING_KEY, loadConfig } from '../../src/config';

/** The environment is validated at start; a mistake is reported by name, all at once. */
describe('loadConfig', () => {
  const problemsOf = (env: NodeJS.ProcessEnv): string => {
    try {
      loadConfig(env);
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as Error).message;
    }
    throw new Error('expected a ConfigError');
  };

  it('defaults: port 4000, embedded database, development, info, demo data on', () => {
    expect(loadConfig({})).toEqual({
      port: 4000,
      host: '0.0.0.0',
      databaseUrl: null,
      dataDir: '.data/pglite',
      env: 'development',
      logLevel: 'info',
      seedDemo: true,
      dbPoolMax: 10,
      bodyLimit: '100kb',
      trustProxy: false,
      graphqlIntrospection: true,
      jwt: { signingKey: DEVELOPMENT_JWT_SIGNING_KEY, issuer: 'fund-distribution-gateway', refreshTokenTtlSeconds: 604800 },
      supplyProviders: {},
      supplySimulator: true,
      events: {
        redisUrl: null,
        redisChannelPrefix: 'gw:',
        pollMs: 200,
        webhookConcurrency: 32,
        webhookPerEndpoint: 8,
        webhookTimeoutMs: 15_000,
        webhookAllowedHosts: [],
        webhookCaFile: null,
        webhookSecretKey: expect.any(Buffer),
      },
      metricsToken: null,
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://u@db:5432/gw',
      APP_ENV: 'production',
      LOG_LEVEL: 'WARN',
      DB_POOL_MAX: '20',
      BODY_LIMIT: '1mb',
      JWT_SIGNING_KEY: 'k'.repeat(32),
      WEBHOOK_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
    });
    expect(config).toMatchObject({ port: 8080, host: '127.0.0.1', databaseUrl: 'postgres://u@db:5432/gw', env: 'production', logLevel: 'warn', seedDemo: false, dbPoolMax: 20, bodyLimit: '1mb' });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT must be an integer from 0 to 65535, got "abc"'],
    [{ PORT: '70000' }, 'PORT must be an integer from 0 to 65535, got "70000"'],
    [{ PORT: '80.5' }, 'PORT must be an integer from 0 to 65535, got "80.5"'],
    [{ LOG_LEVEL: 'verbose' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"'],
    [{ DATABASE_URL: 'mysql://db/gw' }, 'DATABASE_URL must be a postgres:// or postgresql:// URL'],
    [{ APP_ENV: 'prod env!' }, 'APP_ENV must be a simple name such as production, got "prod env!"'],
    [{ SEED_DEMO: 'maybe' }, 'SEED_DEMO must be true or false, got "maybe"'],
    [{ BODY_LIMIT: 'huge' }, 'BODY_LIMIT must look like 100kb or 1mb, got "huge"'],
    [{ DB_POOL_MAX: '0' }, 'DB_POOL_MAX must be an integer from 1 to 200, got "0"'],
  ])('%j is refused with a message naming the variable', (env, message) => {
    expect(problemsOf(env)).toBe(`Invalid configuration:\n  - ${message}`);
  });

  it('reports every problem at once', () => {
    const message = problemsOf({ PORT: '-1', LOG_LEVEL: 'loud', DATABASE_URL: 'http://x' });
    expect(message.split('\n')).toEqual([
      'Invalid configuration:',
      '  - DATABASE_URL must be a postgres:// or postgresql:// URL',
      '  - LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
      '  - PORT must be an integer from 0 to 65535, got "-1"',
    ]);
  });
});
