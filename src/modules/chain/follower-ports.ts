import type { EntityManager } from '@mikro-orm/postgresql';

/** A token the follower reads the transfers of: its contract (lower-cased), its share class, its decimals. */
export interface FollowedToken {
  address: string;
  shareClassId: string;
  decimals: number;
}

/**
 * The tokens a chain carries, handed to the follower at wiring (src/services.ts) by the token module
 * (src/modules/token/token-chains.queries.ts, `tokensToFollow`): the chain reads no token record itself.
 */
export type TokensToFollow = (em: EntityManager, chainId: string) => Promise<FollowedToken[]>;

/**
 * Why an investor may not hold a share class under its rule set now (country, category, KYC), or
 * null: handed in at wiring by the eligibility module (src/modules/eligibility/eligibility.ts).
 */
export type HolderIneligibility = (em: EntityManager, shareClassId: string, investorId: string, at: Date) => Promise<string | null>;

/** What the chain follower (follower.ts) asks of the domain, in its words, handed in at wiring (src/services.ts). */
export interface FollowerPorts {
  tokensOf: TokensToFollow;
  ineligibility: HolderIneligibility;
}
