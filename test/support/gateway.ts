import 'reflect-metadata';
import type { EntityManager } from '@mikro-orm/postgresql';
import { createGateway, type Gateway, type GatewayDeps } from '../../src/app';
import type { SupplyProvidersConfig } from '../../src/supply/provider';
import { ManualClock } from '../../src/common/clock';
import { runInScope } from '../../src/common/request-scope';
import type { EventsConfig } from '../../src/config';
import { assertMatchesContract } from './contract';
import { httpRequest, type HttpResponse, type RequestOptions } from './http';
import { openTestDatabase, type TestDatabase } from './database';

/**
 * A gateway under test: the real app on a free loopback port, over a real database.
 * `api` speaks REST under /api/v1; `graphql` speaks GraphQL at /graphql.
 */
export interface TestGateway {
  port: number;
  db: TestDatabase;
  clock: ManualClock;
  gateway: Gateway;
  /** A fresh EntityManager for arranging and inspecting data directly. */
  em(): EntityManager;
  api<T = any>(method: string, path: string, opts?: RequestOptions): Promise<HttpResponse<T>>;
  graphql<T = any>(
    query: string,
    variables?: Record<string, unknown>,
    opts?: { token?: string; headers?: Record<string, string> },
  ): Promise<HttpResponse<{ data?: T; errors?: any[] }>>;
  /** A valid ops bearer token (`test-ops`, role admin). */
  opsToken(): Promise<string>;
  /** A valid ops bearer token of another principal, with these roles. */
  opsTokenAs(name: string, roles: string[]): Promise<string>;
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** Suites move their clock years past the ops token's issue; the expiry tests pass their own lifetime. */
const SUITE_OPS_TOKEN_TTL_SECONDS = 100 * 365 * 24 * 3600;

/** Suites make many token requests from 127.0.0.1; the rate-limit tests pass their own limits. */
const GENEROUS_RATE_LIMITS = { authPerKey: 10_000, authPerAddress: 10_000, opsFailuresPerAddress: 10_000 };

/** Suites write and subscribe far faster than any distributor from one address; the quota tests pass their own. */
export const GENEROUS_QUOTAS = {
  writes: 1_000_000,
  socketsPerPrincipal: 10_000,
  socketsPerAddress: 10_000,
  subscriptionsPerPrincipal: 10_000,
  subscriptionsPerAddress: 10_000,
};

export async function startTestGateway(
  options: {
    poolMax?: number;
    supply?: SupplyProvidersConfig;
    events?: Partial<EventsConfig>;
    background?: boolean;
    config?: Partial<GatewayDeps['config']>;
    websocketRecheckMs?: number;
    /** The chains it speaks to (test/support/chain.ts: `testChains()` for the worker's anvil). */
    chains?: GatewayDeps['chains'];
  } = {},
): Promise<TestGateway> {
  const clock = new ManualClock();
  const db = await openTestDatabase(clock, options.poolMax);
  const config = {
    env: 'test',
    bodyLimit: '100kb',
    opsTokenTtlSeconds: SUITE_OPS_TOKEN_TTL_SECONDS,
    ...options.config,
    rateLimits: { ...GENEROUS_RATE_LIMITS, ...options.config?.rateLimits },
    quotas: { ...GENEROUS_QUOTAS, ...options.config?.quotas },
  };
  const gateway = await createGateway({
    config,
    orm: db.orm,
    clock,
    supply: options.supply,
    events: options.events,
    background: options.background ?? false,
    websocketRecheckMs: options.websocketRecheckMs,
    chains: options.chains,
    chainPollMs: 100,
    chainFollowMs: 300,
  });
  const port = await gateway.listen(0, '127.0.0.1');
  let opsToken: Promise<string> | null = null;
  // A principal is a person: a name is issued once (per reset); asking again answers the same token.
  const tokensByName = new Map<string, { token: Promise<string>; roles: string }>();
  const t: TestGateway = {
    port,
    db,
    clock,
    gateway,
    em: () => db.orm.em.fork(),
    // Every REST response passes here, and is checked against the OpenAPI document (test/support/contract.ts).
    api: async (method, path, opts) => {
      const res = await httpRequest(port, method, `/api/v1${path}`, opts);
      assertMatchesContract(method, path, opts, res);
      return res;
    },
    graphql: (query, variables, opts = {}) =>
      httpRequest(port, 'POST', '/graphql', {
        body: { query, variables },
        headers: { ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}), ...(opts.headers ?? {}) },
      }),
    // A name is issued once per reset (a second issue of it is refused): the issue itself is
    // remembered, so concurrent first calls share it.
    opsToken() {
      opsToken ??= runInScope({ actor: 'test' }, () => gateway.services.opsToken.issue(db.orm.em.fork(), 'test-ops', ['admin'])).then((t) => t.token);
      return opsToken;
    },
    opsTokenAs(name, roles) {
      const known = tokensByName.get(name);
      if (known && known.roles !== roles.join()) throw new Error(`test principal ${name} was issued with roles ${known.roles}, not ${roles.join()}`);
      if (known) return known.token;
      const token = runInScope({ actor: 'test' }, () => gateway.services.opsToken.issue(db.orm.em.fork(), name, roles)).then((t) => t.token);
      tokensByName.set(name, { token, roles: roles.join() });
      return token;
    },
    async reset() {
      opsToken = null;
      tokensByName.clear();
      clock.set(null);
      // The relay and the delivery worker hold row locks that TRUNCATE would deadlock with.
      await gateway.background.stop();
      await db.truncate();
      gateway.services.readCache.clear();
      gateway.services.opsToken.forget(); // the tokens were truncated with the rest
      if (options.background) await gateway.background.start();
    },
    async close() {
      await gateway.close();
      await db.close();
    },
  };
  return t;
}
