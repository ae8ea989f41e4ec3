import type { MikroORM } from '@mikro-orm/postgresql';
import type { Server } from 'node:http';
import type { Clock } from './common/clock';
import type { Config, EventsConfig } from './config';
import type { RateLimitConfig } from './access/rate-limit';
import type { QuotaConfig } from './access/quotas';
import type { SupplyProvidersConfig } from './supply/provider';
import type { ChainsConfig } from './config/chains';
import type { ChainFollower } from './modules/chain/follower';
import type { Services } from './services';

/*
 * What a gateway takes (GatewayDeps) and what it gives back (Gateway); src/app.ts assembles it.
 */

export interface Gateway {
  server: Server;
  services: Services;
  /** Starts listening; resolves with the bound port. */
  listen(port: number, host: string): Promise<number>;
  /** The chain follower (src/modules/chain/follower.ts), running whenever a chain is configured. */
  chainFollower: ChainFollower | null;
  /** The event relay and the webhook delivery worker, running unless the gateway was built without them. */
  background: {
    start(): Promise<void>;
    /** Lets the current cycle finish, then stops; nothing is lost (work left stays in the database). */
    stop(): Promise<void>;
  };
  /** Starts the scheduled reconciliation where it was held (GatewayDeps.reconcileAtOnce false). */
  startReconciliation(): void;
  /**
   * Says "not ready" on /ready (503, `draining`) while still serving everything: a load balancer
   * that checks readiness stops sending here before `close` stops listening (docs/scaling.md).
   */
  drain(): void;
  /** Stops taking requests, lets in-flight ones finish, then stops. */
  close(): Promise<void>;
}

export interface GatewayDeps {
  config: Pick<Config, 'env' | 'bodyLimit'> &
    Partial<
      Pick<
        Config,
        | 'jwt'
        | 'trustProxy'
        | 'graphqlIntrospection'
        | 'graphqlLimits'
        | 'metricsToken'
        | 'corsAllowedOrigins'
        | 'hostBindingRequired'
        | 'tls'
        | 'opsTokenTtlSeconds'
        | 'consoleSessionTtlSeconds'
        | 'recoveryDelaySeconds'
      >
    > & { rateLimits?: Partial<RateLimitConfig>; quotas?: Partial<QuotaConfig> };
  orm: MikroORM;
  clock: Clock;
  /** Supply-side platforms by provider id (Config.supplyProviders). */
  supply?: SupplyProvidersConfig;
  /** Events settings (relay, webhooks, subscriptions); unset ones take their defaults. */
  events?: Partial<EventsConfig>;
  /** Start the event relay and the delivery worker (default true; tests that do not need them turn them off). */
  background?: boolean;
  /** Lifetime of read-cache entries (default READ_CACHE_TTL_MS). */
  readCacheTtlMs?: number;
  /** How often a graphql-ws connection's credential is checked again (default 15 s). */
  websocketRecheckMs?: number;
  /** The chains the gateway speaks to (CHAINS, or the embedded anvil); unset: none. */
  chains?: ChainsConfig;
  /** How often the chain sender looks for work (default 250 ms). */
  chainPollMs?: number;
  /** How often the chain follower reads new blocks (default 1 s). */
  chainFollowMs?: number;
  /** How often the lock-up release job runs (src/modules/settlement/lock-up-onchain.ts); a minute by default. */
  lockUpReleaseMs?: number;
  /** How often the KYC claim expiry job runs (src/modules/investor/kyc-claim.ts); a minute by default. */
  kycExpiryMs?: number;
  /** How often the scheduled reconciliation runs (RECONCILIATION_INTERVAL_MS, default daily). */
  reconciliationIntervalMs?: number;
  /**
   * Start the scheduled reconciliation at once (default true). A first development start holds
   * it until the demo's tokens are deployed: before, the register names placeholder addresses.
   */
  reconcileAtOnce?: boolean;
}
