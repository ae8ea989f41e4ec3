import { DEFAULT_RATE_LIMITS, type RateLimitConfig } from '../access/rate-limit';
import { DEFAULT_QUOTAS, type QuotaConfig } from '../access/quotas';
import { DEFAULT_GRAPHQL_LIMITS, type GraphqlLimits } from './graphql-limits';
import type { SupplyProvidersConfig } from '../supply/provider';
import { parseChains, type ChainsConfig } from './chains';
import { appEnvOf, ConfigError, isDevelopmentEnv, requiredOutsideDevelopment, type IntSetting } from './environment';
import { parseOrigins, parseTls, parseTrustProxy, type TlsConfig, type TrustProxy } from './transport';
import { DEFAULT_CONSOLE_SESSION_TTL_SECONDS, DEFAULT_OPS_TOKEN_TTL_SECONDS, parseJwt, type JwtConfig } from './auth';
import { parseEvents, type EventsConfig } from './events';
import { parseSupplyProviders } from './supply';
import { GENERATE_TOKEN, textSecretWeakness, weakSecret } from './secret-strength';
import { withSecretFiles } from './secret-settings';

export { ConfigError, isDevelopmentEnv } from './environment';
export { bodyLimitBytes, type TlsConfig, type TrustProxy } from './transport';
export { DEFAULT_CONSOLE_SESSION_TTL_SECONDS, DEFAULT_OPS_TOKEN_TTL_SECONDS, DEVELOPMENT_JWT_SIGNING_KEY, developmentJwtConfig, type JwtConfig } from './auth';
export { defaultEventsConfig, type EventsConfig } from './events';

/** How often the scheduled reconciliation of the register with the chain runs by default: daily. */
export const DEFAULT_RECONCILIATION_INTERVAL_MS = 86_400_000;

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
  /**
   * Environment name reported by /health (APP_ENV). Only an explicit `development` or `test` runs
   * with the development conveniences; unset or anything else is production (fail closed):
   * `npm start` says `APP_ENV=development` itself.
   */
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
   * Behind reverse proxies: a comma-separated list of proxy addresses/CIDRs whose
   * `X-Forwarded-For` is believed (TRUST_PROXY, default none; `true` and hop counts are refused).
   */
  trustProxy: TrustProxy;
  /** Answer GraphQL introspection (GRAPHQL_INTROSPECTION; development and test only, on by default there). */
  graphqlIntrospection: boolean;
  /** Size limits of a GraphQL document, HTTP and graphql-ws (GRAPHQL_MAX_DEPTH, _ALIASES, _COST, _TOKENS, _DIRECTIVES). */
  graphqlLimits: GraphqlLimits;
  /** Token requests and ops-token guesses per window (RATE_LIMIT_*; counted in Redis when REDIS_URL is set). */
  rateLimits: RateLimitConfig;
  /** Writes, sockets and subscriptions per principal and address (QUOTA_*; counted in Redis when REDIS_URL is set). */
  quotas: QuotaConfig;
  /** Surface-O access tokens (JWT_SIGNING_KEY, JWT_ISSUER, REFRESH_TOKEN_TTL_SECONDS). */
  jwt: JwtConfig;
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
  /** The relay, webhook delivery and subscriptions (see EventsConfig). */
  events: EventsConfig;
  /**
   * Bearer token GET /metrics and the detailed /ready require (METRICS_TOKEN, at least 16
   * characters). Required outside development and test; unset there, both are open.
   */
  metricsToken: string | null;
  /**
   * Origins whose browser pages may call `/api/v1` (CORS_ALLOWED_ORIGINS, comma-separated
   * `scheme://host[:port]`, default none). Any other `Origin`, and a `Sec-Fetch-Site` other than
   * `same-origin`/`none`, is refused with 403: server backends send neither.
   */
  corsAllowedOrigins: string[];
  /**
   * Refuse surface-R requests on a host that is bound to nothing (HOST_BINDING_REQUIRED). Always
   * on outside development and test (`false` is refused there); off by default in development and
   * test, where it may be turned on. See HostBinding (src/modules/distributor/host-binding.ts).
   */
  hostBindingRequired: boolean;
  /** The gateway serves HTTPS itself (TLS_CERT_FILE, TLS_KEY_FILE, TLS_CLIENT_CA_FILE); null: plain HTTP. */
  tls: TlsConfig | null;
  /** Lifetime of an ops token in seconds (OPS_TOKEN_TTL_SECONDS, default 30 days, from 1 minute to 1 year). */
  opsTokenTtlSeconds: number;
  /** Lifetime of a console session in seconds (CONSOLE_SESSION_TTL_SECONDS, default 8 hours, from 1 minute to 1 day); never past its token's. */
  consoleSessionTtlSeconds: number;
  /** How long an approved wallet recovery waits before it runs (RECOVERY_DELAY_SECONDS; default 0 in development and test, 24 hours elsewhere; at most 30 days). */
  recoveryDelaySeconds: number;
  /**
   * The chains the gateway speaks to (CHAINS, JSON by chain id; see src/config/chains.ts).
   * Null: none configured — in development and test the gateway then runs its own anvil (chain 31337).
   */
  chains: ChainsConfig | null;
  /** Folder of the embedded chain's state (CHAIN_DATA_DIR, default `.data/anvil`; `none`: in memory). */
  chainDataDir: string | null;
  /** How often the register is reconciled with the chain (RECONCILIATION_INTERVAL_MS, default daily; at least a minute). */
  reconciliationIntervalMs: number;
  /**
   * On SIGTERM, how long /ready answers 503 `draining` while the gateway still serves, before it
   * stops listening (SHUTDOWN_DRAIN_MS, default 5000 outside development and test, 0 there; at
   * most 10000, within the 15 s a stop may take): longer than the load balancer's readiness interval.
   */
  shutdownDrainMs: number;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(given: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  // Every secret setting may come from a file (NAME_FILE): read once, here, before any is parsed.
  const env = withSecretFiles(given, problems);
  const int: IntSetting = (name, fallback, min, max) => {
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
  const appEnv = appEnvOf(env);
  if (!/^[a-z0-9][a-z0-9_-]*$/i.test(appEnv)) problems.push(`APP_ENV must be a simple name such as production, got "${appEnv}"`);
  const bodyLimit = env.BODY_LIMIT?.trim() || '100kb';
  if (!/^\d+(b|kb|mb)$/i.test(bodyLimit)) problems.push(`BODY_LIMIT must look like 100kb or 1mb, got "${bodyLimit}"`);
  const development = isDevelopmentEnv(appEnv);
  // Demo data, the simulator and introspection are development conveniences: asked for elsewhere, they are refused.
  const developmentOnly = (name: string) => {
    const on = bool(name, appEnv === 'development' || (name === 'GRAPHQL_INTROSPECTION' && development));
    if (on && !development) problems.push(`${name} is only allowed when APP_ENV is development or test, got APP_ENV=${appEnv}`);
    return on && development;
  };

  const config: Config = {
    port: int('PORT', 4000, 0, 65535),
    host: env.HOST?.trim() || '0.0.0.0',
    databaseUrl,
    dataDir: env.DATA_DIR?.trim() || '.data/pglite',
    env: appEnv,
    logLevel,
    seedDemo: developmentOnly('SEED_DEMO'),
    dbPoolMax: int('DB_POOL_MAX', 10, 1, 200),
    bodyLimit,
    trustProxy: parseTrustProxy(env.TRUST_PROXY, appEnv, problems),
    graphqlIntrospection: developmentOnly('GRAPHQL_INTROSPECTION'),
    graphqlLimits: {
      maxDepth: int('GRAPHQL_MAX_DEPTH', DEFAULT_GRAPHQL_LIMITS.maxDepth, 2, 100),
      maxAliases: int('GRAPHQL_MAX_ALIASES', DEFAULT_GRAPHQL_LIMITS.maxAliases, 0, 1000),
      maxCost: int('GRAPHQL_MAX_COST', DEFAULT_GRAPHQL_LIMITS.maxCost, 10, 10_000_000),
      maxTokens: int('GRAPHQL_MAX_TOKENS', DEFAULT_GRAPHQL_LIMITS.maxTokens, 50, 1_000_000),
      maxDirectives: int('GRAPHQL_MAX_DIRECTIVES', DEFAULT_GRAPHQL_LIMITS.maxDirectives, 0, 1000),
    },
    rateLimits: {
      authPerKey: int('RATE_LIMIT_AUTH_PER_KEY', DEFAULT_RATE_LIMITS.authPerKey, 1, 1_000_000),
      authPerAddress: int('RATE_LIMIT_AUTH_PER_ADDRESS', DEFAULT_RATE_LIMITS.authPerAddress, 1, 1_000_000),
      opsFailuresPerAddress: int('RATE_LIMIT_OPS_FAILURES', DEFAULT_RATE_LIMITS.opsFailuresPerAddress, 1, 1_000_000),
      windowSeconds: int('RATE_LIMIT_WINDOW_SECONDS', DEFAULT_RATE_LIMITS.windowSeconds, 1, 86_400),
    },
    quotas: {
      writes: int('QUOTA_WRITES', DEFAULT_QUOTAS.writes, 1, 1_000_000),
      writesWindowSeconds: int('QUOTA_WRITES_WINDOW_SECONDS', DEFAULT_QUOTAS.writesWindowSeconds, 1, 86_400),
      socketsPerPrincipal: int('QUOTA_SOCKETS_PER_PRINCIPAL', DEFAULT_QUOTAS.socketsPerPrincipal, 1, 1_000_000),
      socketsPerAddress: int('QUOTA_SOCKETS_PER_ADDRESS', DEFAULT_QUOTAS.socketsPerAddress, 1, 1_000_000),
      subscriptionsPerPrincipal: int('QUOTA_SUBSCRIPTIONS_PER_PRINCIPAL', DEFAULT_QUOTAS.subscriptionsPerPrincipal, 1, 1_000_000),
      subscriptionsPerAddress: int('QUOTA_SUBSCRIPTIONS_PER_ADDRESS', DEFAULT_QUOTAS.subscriptionsPerAddress, 1, 1_000_000),
    },
    jwt: parseJwt(env, appEnv, int, problems),
    supplyProviders: parseSupplyProviders(env.SUPPLY_PROVIDERS, appEnv, problems),
    supplySimulator: developmentOnly('SUPPLY_SIMULATOR'),
    events: parseEvents(env, appEnv, int, problems),
    metricsToken: parseMetricsToken(env.METRICS_TOKEN, appEnv, problems),
    corsAllowedOrigins: parseOrigins(env.CORS_ALLOWED_ORIGINS, problems),
    hostBindingRequired: development
      ? bool('HOST_BINDING_REQUIRED', false)
      : requiredOutsideDevelopment(bool('HOST_BINDING_REQUIRED', true), 'HOST_BINDING_REQUIRED', appEnv, problems),
    tls: parseTls(env, appEnv, problems),
    opsTokenTtlSeconds: int('OPS_TOKEN_TTL_SECONDS', DEFAULT_OPS_TOKEN_TTL_SECONDS, 60, 365 * 24 * 3600),
    consoleSessionTtlSeconds: int('CONSOLE_SESSION_TTL_SECONDS', DEFAULT_CONSOLE_SESSION_TTL_SECONDS, 60, 24 * 3600),
    recoveryDelaySeconds: int('RECOVERY_DELAY_SECONDS', development ? 0 : 24 * 3600, 0, 30 * 86_400),
    chains: parseChains(env.CHAINS, env, problems),
    chainDataDir: env.CHAIN_DATA_DIR?.trim() === 'none' ? null : env.CHAIN_DATA_DIR?.trim() || '.data/anvil',
    reconciliationIntervalMs: int('RECONCILIATION_INTERVAL_MS', DEFAULT_RECONCILIATION_INTERVAL_MS, 60_000, 31 * 86_400_000),
    shutdownDrainMs: int('SHUTDOWN_DRAIN_MS', development ? 0 : 5000, 0, 10_000),
  };
  // The embedded database is one process's files on one disk: development's, never a deployment's.
  if (!databaseUrl && !development)
    problems.push(`DATABASE_URL is required when APP_ENV is ${appEnv} (the embedded database is for development and test only)`);
  if (problems.length) {
    const unset = env.APP_ENV?.trim()
      ? ''
      : '\n(APP_ENV is unset, so the gateway runs as production; `npm start` runs as development, or set APP_ENV=development)';
    throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}${unset}`);
  }
  return config;
}

/** METRICS_TOKEN: required outside development and test (fail closed); unset there leaves /metrics open. */
function parseMetricsToken(raw: string | undefined, appEnv: string, problems: string[]): string | null {
  const token = raw?.trim() || null;
  if (token !== null && (token.length < 16 || /\s/.test(token))) problems.push('METRICS_TOKEN must be at least 16 characters without spaces');
  else if (token !== null && !isDevelopmentEnv(appEnv)) {
    const why = textSecretWeakness(token, 16);
    if (why) problems.push(weakSecret('METRICS_TOKEN', why, GENERATE_TOKEN));
  }
  if (token === null && !isDevelopmentEnv(appEnv))
    problems.push(`METRICS_TOKEN is required when APP_ENV is ${appEnv} (/metrics and the detailed /ready answer only to it)`);
  return token;
}
