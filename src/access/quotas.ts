import { defaultFieldResolver, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import type Redis from 'ioredis';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { RateLimited } from '../common/errors';
import type { Principal } from './principal';
import { OpenHolds } from './open-holds';
import { consumeOrRefuse, counter } from './rate-limit';
import type { GatewayContext } from './graphql-context';

/**
 * What one principal (and one address) may do at once, whichever door it uses: writes per window,
 * sockets and subscriptions held open. The defaults sit far above what a distributor's backend
 * does (orders placed as its investors ask, a few sockets carrying its subscriptions) and far
 * below what a runaway loop does (300 orders in 2.1 s, a socket per subscription): see
 * docs/scaling.md for the reasoning.
 */
export interface QuotaConfig {
  /** Writes (GraphQL mutations, REST R and O writes) per distributor per window (QUOTA_WRITES, default 100). */
  writes: number;
  /** The writes' window in seconds (QUOTA_WRITES_WINDOW_SECONDS, default 10): 10 writes a second sustained, bursts of 100. */
  writesWindowSeconds: number;
  /** graphql-ws sockets open per principal (QUOTA_SOCKETS_PER_PRINCIPAL, default 20). */
  socketsPerPrincipal: number;
  /** graphql-ws sockets open per client address (QUOTA_SOCKETS_PER_ADDRESS, default 50). */
  socketsPerAddress: number;
  /** Subscriptions open per principal (QUOTA_SUBSCRIPTIONS_PER_PRINCIPAL, default 100). */
  subscriptionsPerPrincipal: number;
  /** Subscriptions open per client address (QUOTA_SUBSCRIPTIONS_PER_ADDRESS, default 200). */
  subscriptionsPerAddress: number;
}

export const DEFAULT_QUOTAS: QuotaConfig = {
  writes: 100,
  writesWindowSeconds: 10,
  socketsPerPrincipal: 20,
  socketsPerAddress: 50,
  subscriptionsPerPrincipal: 100,
  subscriptionsPerAddress: 200,
};

/** The refusal of a write over the quota (REST: 429, `Retry-After`, in the envelope; GraphQL: RATE_LIMITED, `extensions.retryAfter`). */
export const WRITE_QUOTA_MESSAGE = 'too many writes, retry later';
/** Why a socket or a subscription is refused (graphql-ws close reason, subscription error). */
export const SOCKET_QUOTA_MESSAGE = 'Too many open sockets';
export const SUBSCRIPTION_QUOTA_MESSAGE = 'too many open subscriptions';

/**
 * Whose quota a principal spends: a distributor's one book (surface R's host and surface O's
 * partner are the same record, so they share it), an ops token by its name. Nobody has none.
 */
export function quotaHolder(principal: Principal): string | null {
  switch (principal.kind) {
    case 'distributor':
      return `distributor:${principal.distributorId}`;
    case 'ops':
      return `ops:${principal.name}`;
    default:
      return null;
  }
}

export type Opened = { release: () => Promise<void> } | { refused: 'principal' | 'address' };

/**
 * The quotas, counted where the rate limits count (Redis when REDIS_URL is set, so several
 * gateways share one quota; else this process).
 */
export class Quotas {
  private readonly writes: RateLimiterAbstract;
  private readonly holds: OpenHolds;

  constructor(
    private readonly config: QuotaConfig,
    redis: Redis | null,
    prefix: string,
  ) {
    this.writes = counter(redis, `${prefix}quota:writes`, config.writes, config.writesWindowSeconds);
    this.holds = new OpenHolds(redis, `${prefix}quota:open:`);
  }

  /**
   * One write of `principal`: distributors (either surface) are counted; ops work (settlement,
   * NAV publication, batches) and anonymous token requests (rate-limit.ts counts those) are not.
   */
  async write(principal: Principal): Promise<void> {
    if (principal.kind !== 'distributor') return;
    await consumeOrRefuse(this.writes, quotaHolder(principal)!).catch((err) => {
      throw err instanceof RateLimited ? new RateLimited(err.retryAfterSeconds, WRITE_QUOTA_MESSAGE) : err;
    });
  }

  /** A graphql-ws socket of `principal` from `address`, held until released. */
  openSocket(principal: Principal, address: string | undefined): Promise<Opened> {
    return this.open('socket', principal, address, this.config.socketsPerPrincipal, this.config.socketsPerAddress);
  }

  /** A subscription of `principal` from `address`, held until released. */
  openSubscription(principal: Principal, address: string | undefined): Promise<Opened> {
    return this.open('subscription', principal, address, this.config.subscriptionsPerPrincipal, this.config.subscriptionsPerAddress);
  }

  close(): void {
    this.holds.close();
  }

  private async open(what: string, principal: Principal, address: string | undefined, perPrincipal: number, perAddress: number): Promise<Opened> {
    const holder = quotaHolder(principal);
    const ceilings = [
      ...(holder ? [{ key: `${what}:${holder}`, limit: perPrincipal }] : []),
      ...(address ? [{ key: `${what}:address:${address}`, limit: perAddress }] : []),
    ];
    const taken = await this.holds.take(ceilings);
    if ('release' in taken) return taken;
    return { refused: ceilings[taken.refused].key.startsWith(`${what}:address:`) ? 'address' : 'principal' };
  }
}

/**
 * Counts every root mutation field against its caller's write quota before it runs. Every door
 * writes through these fields (GraphQL over HTTP and graphql-ws, the REST facade's fixed
 * operations of both surfaces), so the quota is one rule behind all of them; reads never pass here.
 */
export function countWrites(schema: GraphQLSchema): GraphQLSchema {
  for (const field of Object.values(schema.getMutationType()?.getFields() ?? {})) {
    const resolve: GraphQLFieldResolver<unknown, GatewayContext> = field.resolve ?? defaultFieldResolver;
    field.resolve = async (source, args, ctx: GatewayContext, info) => {
      await ctx.services.quotas.write(ctx.access.principal);
      return resolve(source, args, ctx, info);
    };
  }
  return schema;
}
