import { readFileSync } from 'node:fs';
import { DEFAULT_RATE_LIMITS, type RateLimitConfig } from './common/rate-limit';
import { DEFAULT_GRAPHQL_LIMITS, type GraphqlLimits } from './graphql/limits';
import type { SupplyProvidersConfig } from './supply/provider';
import { coversEveryAddress, parseRange, type IpRange } from './common/cidr';
import { parseChains, type ChainsConfig } from './modules/chain/chain-config';

/**
 * The environments that may run on the public development keys and show demo data, printed
 * secrets, Apollo Sandbox and introspection: `development` (`npm start`) and `test` (the suite).
 * Every other APP_ENV (`staging`, `prod`, `production`, …) fails closed.
 */
/** How often the scheduled reconciliation of the register with the chain runs by default: daily. */
export const DEFAULT_RECONCILIATION_INTERVAL_MS = 86_400_000;

export function isDevelopmentEnv(env: string): boolean {
  return env === 'development' || env === 'test';
}

/**
 * Which peers may tell the gateway the client's address through `X-Forwarded-For` (rate limits,
 * the source ranges a bound surface-R host admits): none (`false`), the nearest N hops, or the
 * listed proxy addresses and CIDR ranges (express's `trust proxy`). Never every peer. The
 * distributor of a surface-R request comes from `Host` alone: `X-Forwarded-Host` is never read.
 */
export type TrustProxy = false | number | string[];

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
   * Behind reverse proxies: a hop count or a comma-separated list of proxy addresses/CIDRs whose
   * `X-Forwarded-Host`/`-For` are believed (TRUST_PROXY, default none; `true` is refused).
   */
  trustProxy: TrustProxy;
  /** Answer GraphQL introspection (GRAPHQL_INTROSPECTION; development and test only, on by default there). */
  graphqlIntrospection: boolean;
  /** Size limits of a GraphQL document, HTTP and graphql-ws (GRAPHQL_MAX_DEPTH, _ALIASES, _COST, _TOKENS, _DIRECTIVES). */
  graphqlLimits: GraphqlLimits;
  /** Token requests and ops-token guesses per window (RATE_LIMIT_*; counted in Redis when REDIS_URL is set). */
  rateLimits: RateLimitConfig;
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
  /**
   * The chains the gateway speaks to (CHAINS, JSON by chain id; see src/modules/chain/chain-config.ts).
   * Null: none configured — in development and test the gateway then runs its own anvil (chain 31337).
   */
  chains: ChainsConfig | null;
  /** Folder of the embedded chain's state (CHAIN_DATA_DIR, default `.data/anvil`; `none`: in memory). */
  chainDataDir: string | null;
  /** How often the register is reconciled with the chain (RECONCILIATION_INTERVAL_MS, default daily; at least a minute). */
  reconciliationIntervalMs: number;
}

/**
 * TLS served by the gateway itself. With a client CA, client certificates signed by it are
 * requested but not required at the TLS layer: a surface-R host bound to a certificate
 * fingerprint refuses a request without it (403), every other door works without one.
 */
export interface TlsConfig {
  /** PEM certificate chain (TLS_CERT_FILE). */
  cert: string;
  /** PEM private key (TLS_KEY_FILE). */
  key: string;
  /** PEM CA(s) client certificates are verified against (TLS_CLIENT_CA_FILE); null: none requested. */
  clientCa: string | null;
}

/** Lifetime of an ops token unless OPS_TOKEN_TTL_SECONDS says otherwise: 30 days. */
export const DEFAULT_OPS_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

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
    trustProxy: parseTrustProxy(env.TRUST_PROXY, problems),
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
    jwt: parseJwt(env, appEnv, int, problems),
    supplyProviders: parseSupplyProviders(env.SUPPLY_PROVIDERS, problems),
    supplySimulator: developmentOnly('SUPPLY_SIMULATOR'),
    events: parseEvents(env, appEnv, int, problems),
    metricsToken: parseMetricsToken(env.METRICS_TOKEN, appEnv, problems),
    corsAllowedOrigins: parseOrigins(env.CORS_ALLOWED_ORIGINS, problems),
    hostBindingRequired: development ? bool('HOST_BINDING_REQUIRED', false) : requiredOutsideDevelopment(bool('HOST_BINDING_REQUIRED', true), 'HOST_BINDING_REQUIRED', appEnv, problems),
    tls: parseTls(env, problems),
    opsTokenTtlSeconds: int('OPS_TOKEN_TTL_SECONDS', DEFAULT_OPS_TOKEN_TTL_SECONDS, 60, 365 * 24 * 3600),
    chains: parseChains(env.CHAINS, env, problems),
    chainDataDir: env.CHAIN_DATA_DIR?.trim() === 'none' ? null : env.CHAIN_DATA_DIR?.trim() || '.data/anvil',
    reconciliationIntervalMs: int('RECONCILIATION_INTERVAL_MS', DEFAULT_RECONCILIATION_INTERVAL_MS, 60_000, 31 * 86_400_000),
  };
  if (problems.length) throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  return config;
}

/** METRICS_TOKEN: required outside development and test (fail closed); unset there leaves /metrics open. */
function parseMetricsToken(raw: string | undefined, appEnv: string, problems: string[]): string | null {
  const token = raw?.trim() || null;
  if (token !== null && (token.length < 16 || /\s/.test(token))) problems.push('METRICS_TOKEN must be at least 16 characters without spaces');
  if (token === null && !isDevelopmentEnv(appEnv)) problems.push(`METRICS_TOKEN is required when APP_ENV is ${appEnv} (/metrics and the detailed /ready answer only to it)`);
  return token;
}

/** A protection that only development and test may turn off. */
function requiredOutsideDevelopment(on: boolean, name: string, appEnv: string, problems: string[]): true {
  if (!on) problems.push(`${name} cannot be turned off when APP_ENV is ${appEnv} (only development and test may)`);
  return true;
}

/** CORS_ALLOWED_ORIGINS: exact origins (`https://console.example`, no path), compared in lower case. */
function parseOrigins(raw: string | undefined, problems: string[]): string[] {
  const origins = (raw ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  for (const origin of origins) {
    if (!/^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$|^https?:\/\/\[[0-9a-f:.]+\](:\d{1,5})?$/.test(origin)) problems.push(`CORS_ALLOWED_ORIGINS entry "${origin}" must be an origin like https://app.example (scheme, host and optional port, nothing else)`);
  }
  return origins;
}

/** TLS_CERT_FILE and TLS_KEY_FILE together (or neither); TLS_CLIENT_CA_FILE only with them. Files are read now. */
function parseTls(env: NodeJS.ProcessEnv, problems: string[]): TlsConfig | null {
  const certFile = env.TLS_CERT_FILE?.trim() || null;
  const keyFile = env.TLS_KEY_FILE?.trim() || null;
  const caFile = env.TLS_CLIENT_CA_FILE?.trim() || null;
  if (!certFile && !keyFile) {
    if (caFile) problems.push('TLS_CLIENT_CA_FILE needs TLS_CERT_FILE and TLS_KEY_FILE (the gateway must serve TLS to ask for client certificates)');
    return null;
  }
  if (!certFile || !keyFile) {
    problems.push('TLS_CERT_FILE and TLS_KEY_FILE must be set together');
    return null;
  }
  const read = (name: string, file: string, marker: RegExp) => {
    try {
      const pem = readFileSync(file, 'utf8');
      if (!marker.test(pem)) problems.push(`${name} must be a PEM file, got "${file}"`);
      return pem;
    } catch {
      problems.push(`${name} cannot be read: "${file}"`);
      return '';
    }
  };
  return {
    cert: read('TLS_CERT_FILE', certFile, /-----BEGIN CERTIFICATE-----/),
    key: read('TLS_KEY_FILE', keyFile, /-----BEGIN [A-Z ]*PRIVATE KEY-----/),
    clientCa: caFile ? read('TLS_CLIENT_CA_FILE', caFile, /-----BEGIN CERTIFICATE-----/) : null,
  };
}

/** express's named ranges, accepted in TRUST_PROXY beside addresses and CIDRs. */
const NAMED_PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** TRUST_PROXY: unset/false/0 (none), a hop count, or proxy addresses/CIDRs; `true` ("everyone") is refused. */
function parseTrustProxy(raw: string | undefined, problems: string[]): TrustProxy {
  const value = raw?.trim().toLowerCase() ?? '';
  if (value === '' || value === 'false' || value === 'no' || value === '0') return false;
  if (value === 'true' || value === 'yes' || value === '*') {
    problems.push(`TRUST_PROXY must be a hop count or a list of proxy addresses/CIDRs, never "${raw}" (every peer could then choose the distributor by X-Forwarded-Host)`);
    return false;
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 10) problems.push(`TRUST_PROXY hop count must be from 0 to 10, got "${raw}"`);
    return hops;
  }
  const entries = value.split(',').map((s) => s.trim()).filter(Boolean);
  const ranges: IpRange[] = [];
  for (const entry of entries) {
    if (NAMED_PROXY_RANGES.has(entry)) continue;
    const range = parseRange(entry);
    if (!range) problems.push(`TRUST_PROXY entry "${entry}" must be an IP address, a CIDR range or one of loopback, linklocal, uniquelocal`);
    else if (coversEveryAddress([range])) problems.push(`TRUST_PROXY entry "${entry}" trusts every peer`);
    else ranges.push(range);
  }
  // Ranges that together cover everyone are everyone, however they are split.
  if (ranges.length > 1 && coversEveryAddress(ranges)) problems.push(`TRUST_PROXY "${raw}" trusts every peer (its ranges together cover every address)`);
  return entries;
}

/** BODY_LIMIT (validated by loadConfig: `<n>b|kb|mb`) in bytes, for limits that take a number (WebSocket messages). */
export function bodyLimitBytes(limit: string): number {
  const [, n, unit] = /^(\d+)(b|kb|mb)$/i.exec(limit) ?? [, '102400', 'b'];
  return Number(n) * ({ b: 1, kb: 1024, mb: 1024 * 1024 } as Record<string, number>)[unit!.toLowerCase()];
}

/** JWT_SIGNING_KEY (required outside development and test, never the development key there), JWT_ISSUER, REFRESH_TOKEN_TTL_SECONDS. */
function parseJwt(
  env: NodeJS.ProcessEnv,
  appEnv: string,
  int: (name: string, fallback: number, min: number, max: number) => number,
  problems: string[],
): JwtConfig {
  const signingKey = env.JWT_SIGNING_KEY?.trim() || '';
  const realKeys = !isDevelopmentEnv(appEnv);
  if (signingKey && signingKey.length < 32) problems.push('JWT_SIGNING_KEY must be at least 32 characters');
  if (!signingKey && realKeys) problems.push(`JWT_SIGNING_KEY is required when APP_ENV is ${appEnv} (only development and test run on the development key)`);
  if (signingKey === DEVELOPMENT_JWT_SIGNING_KEY && realKeys) problems.push(`JWT_SIGNING_KEY must not be the development key when APP_ENV is ${appEnv}`);
  return {
    signingKey: signingKey || DEVELOPMENT_JWT_SIGNING_KEY,
    issuer: env.JWT_ISSUER?.trim() || 'fund-distribution-gateway',
    refreshTokenTtlSeconds: int('REFRESH_TOKEN_TTL_SECONDS', 7 * 24 * 3600, 60, 90 * 24 * 3600),
  };
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

/** Events: the relay, webhook delivery and subscriptions. */
export interface EventsConfig {
  /** Redis for subscription fan-out across instances (REDIS_URL); null: in-process PubSub. */
  redisUrl: string | null;
  /** Prefix of the Redis channels, so deployments sharing a Redis stay apart (REDIS_CHANNEL_PREFIX, default `gw:`). */
  redisChannelPrefix: string;
  /** How often the relay and the delivery worker look for work when nothing woke them (EVENT_POLL_MS, default 200). */
  pollMs: number;
  /** Webhook attempts one worker runs at once (WEBHOOK_CONCURRENCY, default 32). */
  webhookConcurrency: number;
  /** Attempts in flight at once towards one webhook, so one slow endpoint cannot take every slot (WEBHOOK_PER_ENDPOINT, default 8). */
  webhookPerEndpoint: number;
  /** Time limit of one attempt (WEBHOOK_TIMEOUT_MS, default 15000). */
  webhookTimeoutMs: number;
  /**
   * Hosts, addresses or CIDR ranges webhooks may reach even though they are loopback, private,
   * link-local, CGNAT, unique-local or cloud metadata (WEBHOOK_ALLOWED_HOSTS, comma-separated;
   * default none). For test receivers and on-premise setups only.
   */
  webhookAllowedHosts: string[];
  /** PEM file of extra CAs trusted for webhook TLS, added to the system roots (WEBHOOK_CA_FILE). */
  webhookCaFile: string | null;
  /**
   * Key that encrypts webhook signing secrets at rest, 32 bytes in base64 (WEBHOOK_SECRET_KEY).
   * Required outside development and test; there a fixed development key is used when unset.
   */
  webhookSecretKey: Buffer;
}

/** The development-only key for webhook secrets at rest; every other APP_ENV must set WEBHOOK_SECRET_KEY. */
const DEVELOPMENT_WEBHOOK_KEY = Buffer.from('fund-distribution-gateway-dev-key!!').subarray(0, 32);

/** REDIS_URL, EVENT_POLL_MS, WEBHOOK_* (the key is required outside development and test). */
function parseEvents(
  env: NodeJS.ProcessEnv,
  appEnv: string,
  int: (name: string, fallback: number, min: number, max: number) => number,
  problems: string[],
): EventsConfig {
  const redisUrl = env.REDIS_URL?.trim() || null;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) problems.push('REDIS_URL must be a redis:// or rediss:// URL');
  const webhookCaFile = env.WEBHOOK_CA_FILE?.trim() || null;
  if (webhookCaFile) {
    try {
      const pem = readFileSync(webhookCaFile, 'utf8');
      if (!pem.includes('-----BEGIN CERTIFICATE-----')) problems.push(`WEBHOOK_CA_FILE must be a PEM certificate file, got "${webhookCaFile}"`);
    } catch {
      problems.push(`WEBHOOK_CA_FILE cannot be read: "${webhookCaFile}"`);
    }
  }
  let webhookSecretKey = DEVELOPMENT_WEBHOOK_KEY;
  const rawKey = env.WEBHOOK_SECRET_KEY?.trim();
  const realKeys = !isDevelopmentEnv(appEnv);
  if (rawKey) {
    const key = Buffer.from(rawKey, 'base64');
    if (key.length !== 32) problems.push('WEBHOOK_SECRET_KEY must be 32 bytes in base64');
    else if (realKeys && key.equals(DEVELOPMENT_WEBHOOK_KEY)) problems.push(`WEBHOOK_SECRET_KEY must not be the development key when APP_ENV is ${appEnv}`);
    else webhookSecretKey = key;
  } else if (realKeys) {
    problems.push(`WEBHOOK_SECRET_KEY is required when APP_ENV is ${appEnv} (32 bytes in base64; only development and test run on the development key)`);
  }
  return {
    redisUrl,
    redisChannelPrefix: env.REDIS_CHANNEL_PREFIX?.trim() || 'gw:',
    pollMs: int('EVENT_POLL_MS', 200, 10, 60_000),
    webhookConcurrency: int('WEBHOOK_CONCURRENCY', 32, 1, 1000),
    webhookPerEndpoint: int('WEBHOOK_PER_ENDPOINT', 8, 1, 100),
    webhookTimeoutMs: int('WEBHOOK_TIMEOUT_MS', 15_000, 100, 120_000),
    webhookAllowedHosts: parseWebhookAllowedHosts(env.WEBHOOK_ALLOWED_HOSTS, appEnv, problems),
    webhookCaFile,
    webhookSecretKey,
  };
}

/**
 * WEBHOOK_ALLOWED_HOSTS: host names, addresses or ranges. Outside development and test an entry
 * (or the entries together) covering every address would switch the SSRF guard off: refused.
 */
function parseWebhookAllowedHosts(raw: string | undefined, appEnv: string, problems: string[]): string[] {
  const entries = (raw ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  if (isDevelopmentEnv(appEnv)) return entries;
  const ranges = entries.map((e) => (/^[0-9a-f.:[\]]+(\/\d+)?$/.test(e) ? parseRange(e) : null)).filter((r): r is IpRange => r !== null);
  if (coversEveryAddress(ranges)) problems.push(`WEBHOOK_ALLOWED_HOSTS "${raw}" covers every address when APP_ENV is ${appEnv} (name the hosts or ranges webhooks may reach)`);
  return entries;
}

/**
 * The development defaults of the events settings, for a gateway built without them (tests,
 * benches). The production entry point (main.ts) always passes the validated `Config.events`.
 */
export function defaultEventsConfig(): EventsConfig {
  return parseEvents({}, 'development', (_name, fallback) => fallback, []);
}
