import { ConfigError, DEVELOPMENT_JWT_SIGNING_KEY, loadConfig } from '../../src/config';
import { STRONG_KEYS } from '../support/production-keys';

/** The environment is validated at start; a mistake is reported by name, all at once. */
describe('loadConfig', () => {
  const problemsOf = (env: NodeJS.ProcessEnv): string => {
    try {
      loadConfig({ APP_ENV: 'development', ...env });
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as Error).message;
    }
    throw new Error('expected a ConfigError');
  };

  it('development defaults (npm start): port 4000, embedded database, info, demo data on', () => {
    expect(loadConfig({ APP_ENV: 'development' })).toEqual({
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
      graphqlLimits: { maxDepth: 10, maxAliases: 15, maxCost: 5000, maxTokens: 2000, maxDirectives: 50 },
      rateLimits: { authPerKey: 10, authPerAddress: 60, opsFailuresPerAddress: 10, windowSeconds: 60 },
      quotas: {
        writes: 100,
        writesWindowSeconds: 10,
        socketsPerPrincipal: 20,
        socketsPerAddress: 50,
        subscriptionsPerPrincipal: 100,
        subscriptionsPerAddress: 200,
      },
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
      consoleSessionTtlSeconds: 28800,
      corsAllowedOrigins: [],
      hostBindingRequired: false,
      tls: null,
      opsTokenTtlSeconds: 30 * 24 * 3600,
      chains: null,
      chainDataDir: '.data/anvil',
      reconciliationIntervalMs: 86_400_000,
      recoveryDelaySeconds: 0,
      shutdownDrainMs: 0,
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
      JWT_SIGNING_KEY: STRONG_KEYS.JWT_SIGNING_KEY,
      WEBHOOK_SECRET_KEY: STRONG_KEYS.WEBHOOK_SECRET_KEY,
      METRICS_TOKEN: 'metrics-token-0123456789',
      CORS_ALLOWED_ORIGINS: 'https://Portal.example, http://127.0.0.1:8080',
    });
    expect(config).toMatchObject({ corsAllowedOrigins: ['https://portal.example', 'http://127.0.0.1:8080'], hostBindingRequired: true });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: 'postgres://u@db:5432/gw',
      env: 'production',
      logLevel: 'warn',
      seedDemo: false,
      dbPoolMax: 20,
      bodyLimit: '1mb',
    });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT must be an integer from 0 to 65535, got "abc"'],
    [{ PORT: '70000' }, 'PORT must be an integer from 0 to 65535, got "70000"'],
    [{ PORT: '80.5' }, 'PORT must be an integer from 0 to 65535, got "80.5"'],
    [{ LOG_LEVEL: 'verbose' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"'],
    [{ DATABASE_URL: 'mysql://db/gw' }, 'DATABASE_URL must be a postgres:// or postgresql:// URL'],
    [{ APP_ENV: 'test', PORT: 'abc' }, 'PORT must be an integer from 0 to 65535, got "abc"'],
    [{ SEED_DEMO: 'maybe' }, 'SEED_DEMO must be true or false, got "maybe"'],
    [{ BODY_LIMIT: 'huge' }, 'BODY_LIMIT must look like 100kb or 1mb, got "huge"'],
    [{ DB_POOL_MAX: '0' }, 'DB_POOL_MAX must be an integer from 1 to 200, got "0"'],
    [{ OPS_TOKEN_TTL_SECONDS: '10' }, 'OPS_TOKEN_TTL_SECONDS must be an integer from 60 to 31536000, got "10"'],
  ])('%j is refused with a message naming the variable', (env, message) => {
    expect(problemsOf(env)).toBe(`Invalid configuration:\n  - ${message}`);
  });

  it('a malformed APP_ENV is refused (with the keys it would then need)', () => {
    expect(problemsOf({ APP_ENV: 'prod env!' })).toContain('APP_ENV must be a simple name such as production, got "prod env!"');
  });

  /** Real keys for the environments that must have them. */
  const KEYS = {
    JWT_SIGNING_KEY: STRONG_KEYS.JWT_SIGNING_KEY,
    WEBHOOK_SECRET_KEY: STRONG_KEYS.WEBHOOK_SECRET_KEY,
    METRICS_TOKEN: 'metrics-token-0123456789',
    DATABASE_URL: 'postgres://gw@db:5432/gw',
  };

  it('without APP_ENV the gateway runs as production, and refuses to start naming each missing setting at once', () => {
    let message = '';
    try {
      loadConfig({ NODE_ENV: 'production', TRUST_PROXY: '1' });
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      message = (err as Error).message;
    }
    expect(message.split('\n')).toEqual([
      'Invalid configuration:',
      '  - TRUST_PROXY must list the proxies\' addresses or CIDR ranges (e.g. 10.0.0.5 or 10.0.0.0/24), not a hop count "1" (whoever reaches the port is the nearest hop, so a stranger could choose its own address by X-Forwarded-For)',
      '  - JWT_SIGNING_KEY is required when APP_ENV is production (only development and test run on the development key)',
      '  - WEBHOOK_SECRET_KEY is required when APP_ENV is production (32 bytes in base64; only development and test run on the development key)',
      '  - METRICS_TOKEN is required when APP_ENV is production (/metrics and the detailed /ready answer only to it)',
      '  - DATABASE_URL is required when APP_ENV is production (the embedded database is for development and test only)',
      '(APP_ENV is unset, so the gateway runs as production; `npm start` runs as development, or set APP_ENV=development)',
    ]);
    expect(loadConfig({ ...KEYS })).toMatchObject({
      env: 'production',
      seedDemo: false,
      supplySimulator: false,
      graphqlIntrospection: false,
      hostBindingRequired: true,
    });
  });

  describe('fails closed outside development and test', () => {
    it.each(['production', 'prod', 'staging', 'qa', 'Development'])(
      'APP_ENV=%s requires both keys, the metrics token and a database server, naming each, and requires host bindings',
      (appEnv) => {
        const message = problemsOf({ APP_ENV: appEnv });
        expect(message).toContain(`JWT_SIGNING_KEY is required when APP_ENV is ${appEnv}`);
        expect(message).toContain(`WEBHOOK_SECRET_KEY is required when APP_ENV is ${appEnv}`);
        expect(message).toContain(`METRICS_TOKEN is required when APP_ENV is ${appEnv} (/metrics and the detailed /ready answer only to it)`);
        expect(message).toContain(`DATABASE_URL is required when APP_ENV is ${appEnv} (the embedded database is for development and test only)`);
        expect(loadConfig({ APP_ENV: appEnv, ...KEYS }).hostBindingRequired).toBe(true);
        expect(problemsOf({ APP_ENV: appEnv, ...KEYS, HOST_BINDING_REQUIRED: 'false' })).toBe(
          `Invalid configuration:\n  - HOST_BINDING_REQUIRED cannot be turned off when APP_ENV is ${appEnv} (only development and test may)`,
        );
        expect(loadConfig({ APP_ENV: appEnv, ...KEYS })).toMatchObject({ env: appEnv, seedDemo: false, graphqlIntrospection: false, supplySimulator: false });
      },
    );

    it('refuses the development keys by value', () => {
      const devWebhookKey = Buffer.from('fund-distribution-gateway-dev-key!!').subarray(0, 32).toString('base64');
      const message = problemsOf({ APP_ENV: 'staging', JWT_SIGNING_KEY: DEVELOPMENT_JWT_SIGNING_KEY, WEBHOOK_SECRET_KEY: devWebhookKey });
      expect(message).toContain('JWT_SIGNING_KEY must not be the development key when APP_ENV is staging');
      expect(message).toContain('WEBHOOK_SECRET_KEY must not be the development key when APP_ENV is staging');
    });

    it.each(['SEED_DEMO', 'GRAPHQL_INTROSPECTION', 'SUPPLY_SIMULATOR'])('refuses %s=true', (name) => {
      expect(problemsOf({ APP_ENV: 'staging', ...KEYS, [name]: 'true' })).toBe(
        `Invalid configuration:\n  - ${name} is only allowed when APP_ENV is development or test, got APP_ENV=staging`,
      );
    });

    it.each([['0.0.0.0/0'], ['0.0.0.0/1,128.0.0.0/1'], ['::/0'], ['::ffff:0:0/96'], ['0.0.0.0/2,64.0.0.0/2,128.0.0.0/2,192.0.0.0/2']])(
      'refuses WEBHOOK_ALLOWED_HOSTS=%s (every address), which development and test accept',
      (raw) => {
        expect(problemsOf({ APP_ENV: 'production', ...KEYS, WEBHOOK_ALLOWED_HOSTS: raw })).toBe(
          `Invalid configuration:\n  - WEBHOOK_ALLOWED_HOSTS "${raw}" covers every address when APP_ENV is production (name the hosts or ranges webhooks may reach)`,
        );
        expect(loadConfig({ APP_ENV: 'test', WEBHOOK_ALLOWED_HOSTS: raw }).events.webhookAllowedHosts).toEqual(raw.split(','));
        expect(loadConfig({ APP_ENV: 'production', ...KEYS, WEBHOOK_ALLOWED_HOSTS: 'hooks.internal,10.0.0.0/8' }).events.webhookAllowedHosts).toEqual([
          'hooks.internal',
          '10.0.0.0/8',
        ]);
      },
    );

    it('development and test serve unbound hosts unless HOST_BINDING_REQUIRED is on', () => {
      expect(loadConfig({ APP_ENV: 'test' }).hostBindingRequired).toBe(false);
      expect(loadConfig({ APP_ENV: 'test', HOST_BINDING_REQUIRED: 'true' }).hostBindingRequired).toBe(true);
      expect(loadConfig({ APP_ENV: 'development', HOST_BINDING_REQUIRED: 'yes' }).hostBindingRequired).toBe(true);
    });

    it('development and test keep their conveniences, test without demo data', () => {
      expect(loadConfig({ APP_ENV: 'test' })).toMatchObject({ seedDemo: false, graphqlIntrospection: true, supplySimulator: false });
      expect(loadConfig({ APP_ENV: 'development', GRAPHQL_INTROSPECTION: 'false' })).toMatchObject({ seedDemo: true, graphqlIntrospection: false });
    });
  });

  describe('TRUST_PROXY', () => {
    it.each([
      [undefined, false],
      ['false', false],
      ['0', false],
      ['10.0.0.1', ['10.0.0.1']],
      ['10.0.0.0/8, fd00::/8 ,loopback', ['10.0.0.0/8', 'fd00::/8', 'loopback']],
    ])('%s is %j', (raw, trust) => {
      expect(loadConfig({ APP_ENV: 'development', TRUST_PROXY: raw }).trustProxy).toEqual(trust);
    });

    it.each([
      ['true', 'TRUST_PROXY must list the proxies\' addresses or CIDR ranges, never "true" (every peer could then choose its own address by X-Forwarded-For)'],
      ['yes', 'TRUST_PROXY must list the proxies\' addresses or CIDR ranges, never "yes" (every peer could then choose its own address by X-Forwarded-For)'],
      [
        '1',
        'TRUST_PROXY must list the proxies\' addresses or CIDR ranges (e.g. 10.0.0.5 or 10.0.0.0/24), not a hop count "1" (whoever reaches the port is the nearest hop, so a stranger could choose its own address by X-Forwarded-For)',
      ],
      ['0.0.0.0/0', 'TRUST_PROXY entry "0.0.0.0/0" trusts every peer'],
      ['::/0', 'TRUST_PROXY entry "::/0" trusts every peer'],
      ['::ffff:0.0.0.0/96', 'TRUST_PROXY entry "::ffff:0.0.0.0/96" trusts every peer'],
      ['0.0.0.0/1,128.0.0.0/1', 'TRUST_PROXY "0.0.0.0/1,128.0.0.0/1" trusts every peer (its ranges together cover every address)'],
      [
        '10.0.0.0/8,0.0.0.0/1,128.0.0.0/2,192.0.0.0/2',
        'TRUST_PROXY "10.0.0.0/8,0.0.0.0/1,128.0.0.0/2,192.0.0.0/2" trusts every peer (its ranges together cover every address)',
      ],
      // ::/1 holds ::ffff:0:0/96, every IPv4 client as an IPv6 socket sees it
      ['::/1,8000::/1', 'TRUST_PROXY entry "::/1" trusts every peer'],
      ['8000::/1,4000::/2,::/3,2000::/3', 'TRUST_PROXY entry "::/3" trusts every peer'],
      ['8000::/1,4000::/2,2000::/3,1000::/4,::/4', 'TRUST_PROXY entry "::/4" trusts every peer'],
      ['proxy.example', 'TRUST_PROXY entry "proxy.example" must be an IP address, a CIDR range or one of loopback, linklocal, uniquelocal'],
      ['10.0.0.0/33', 'TRUST_PROXY entry "10.0.0.0/33" must be an IP address, a CIDR range or one of loopback, linklocal, uniquelocal'],
      [
        '99',
        'TRUST_PROXY must list the proxies\' addresses or CIDR ranges (e.g. 10.0.0.5 or 10.0.0.0/24), not a hop count "99" (whoever reaches the port is the nearest hop, so a stranger could choose its own address by X-Forwarded-For)',
      ],
    ])('%s is refused, naming the variable', (raw, message) => {
      expect(problemsOf({ APP_ENV: 'development', TRUST_PROXY: raw })).toBe(`Invalid configuration:\n  - ${message}`);
    });
  });

  describe('CORS_ALLOWED_ORIGINS and TLS_*', () => {
    it('refuses an origin with a path or without a scheme, naming it', () => {
      expect(problemsOf({ APP_ENV: 'development', CORS_ALLOWED_ORIGINS: 'https://ok.example,portal.example,https://x.example/app' })).toBe(
        'Invalid configuration:\n' +
          '  - CORS_ALLOWED_ORIGINS entry "portal.example" must be an origin like https://app.example (scheme, host and optional port, nothing else)\n' +
          '  - CORS_ALLOWED_ORIGINS entry "https://x.example/app" must be an origin like https://app.example (scheme, host and optional port, nothing else)',
      );
    });

    it('TLS files come together, are read at start, and a client CA needs them', () => {
      expect(problemsOf({ APP_ENV: 'development', TLS_CERT_FILE: '/nonexistent/cert.pem' })).toBe(
        'Invalid configuration:\n  - TLS_CERT_FILE and TLS_KEY_FILE must be set together',
      );
      expect(problemsOf({ APP_ENV: 'development', TLS_CLIENT_CA_FILE: '/nonexistent/ca.pem' })).toBe(
        'Invalid configuration:\n  - TLS_CLIENT_CA_FILE needs TLS_CERT_FILE and TLS_KEY_FILE (the gateway must serve TLS to ask for client certificates)',
      );
      expect(problemsOf({ APP_ENV: 'development', TLS_CERT_FILE: '/nonexistent/cert.pem', TLS_KEY_FILE: '/nonexistent/key.pem' })).toBe(
        'Invalid configuration:\n  - TLS_CERT_FILE cannot be read: "/nonexistent/cert.pem"\n  - TLS_KEY_FILE cannot be read: "/nonexistent/key.pem"',
      );
    });
  });

  it('reads the GraphQL and rate limits', () => {
    const config = loadConfig({
      APP_ENV: 'development',
      GRAPHQL_MAX_DEPTH: '8',
      GRAPHQL_MAX_ALIASES: '5',
      GRAPHQL_MAX_COST: '900',
      GRAPHQL_MAX_TOKENS: '700',
      RATE_LIMIT_AUTH_PER_KEY: '3',
      RATE_LIMIT_WINDOW_SECONDS: '30',
    });
    expect(config.graphqlLimits).toEqual({ maxDepth: 8, maxAliases: 5, maxCost: 900, maxTokens: 700, maxDirectives: 50 });
    expect(config.rateLimits).toEqual({ authPerKey: 3, authPerAddress: 60, opsFailuresPerAddress: 10, windowSeconds: 30 });
    expect(problemsOf({ APP_ENV: 'development', GRAPHQL_MAX_DEPTH: '0' })).toContain('GRAPHQL_MAX_DEPTH must be an integer from 2 to 100, got "0"');
  });

  it('reports every problem at once', () => {
    const message = problemsOf({ APP_ENV: 'development', PORT: '-1', LOG_LEVEL: 'loud', DATABASE_URL: 'http://x' });
    expect(message.split('\n')).toEqual([
      'Invalid configuration:',
      '  - DATABASE_URL must be a postgres:// or postgresql:// URL',
      '  - LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
      '  - PORT must be an integer from 0 to 65535, got "-1"',
    ]);
  });
});

describe('TRUST_PROXY: IPv6 ranges that together cover every address', () => {
  it('refuses a split of all of IPv6 that leaves ::ffff:0:0/96 to the last range', () => {
    // ::/4 holds the mapped block, so it alone is refused; without it, the union is refused
    expect(() =>
      loadConfig({ APP_ENV: 'development', TRUST_PROXY: '8000::/1,4000::/2,2000::/3,1000::/4,0800::/5,0400::/6,0200::/7,0100::/8,0000::/8' }),
    ).toThrow(ConfigError);
    expect(loadConfig({ APP_ENV: 'development', TRUST_PROXY: '8000::/1,4000::/2,2000::/3' }).trustProxy).toEqual(['8000::/1', '4000::/2', '2000::/3']);
  });
});
