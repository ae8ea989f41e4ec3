import type { EntityManager } from '@mikro-orm/postgresql';

/*
 * What the chain follower (follower.ts) asks of the register, declared on the chain's side so
 * that the chain imports no domain module; the holding ledger (src/modules/holding/holding-ledger.ts,
 * `chainMove`, `holderOf`, `holderById`) is what src/app.ts hands it. The follower observes transfers
 * between addresses; the register maps wallets to investors.
 */

/** Tokens of one lot, and when they settled: what a move out took, or what an undone move puts back. */
export interface LotPiece {
  quantity: string;
  settledAt: Date;
}

/** A transfer on chain between wallets the register knows, as one holding's move. */
export interface RegisterMove {
  investorId: string;
  shareClassId: string;
  distributorId: string;
  /** Signed decimal: tokens in positive, tokens out negative. */
  change: string;
  at: Date;
  transferHash: string;
  reason: string;
  /** Tokens in: the lots they left, dates kept (a transfer, an undone move); any rest settles at `at`. */
  lots?: LotPiece[];
  /** The `holding.changed` event's own facts (the chain, the counterparty). */
  payload: Record<string, unknown>;
}

/** Who holds a wallet in the register: its investor, and the distributor owning that investor. */
export interface Holder {
  investorId: string;
  distributorId: string;
}

export interface Register {
  /** The investor a wallet (lower-cased) belongs to on this chain (a removed wallet still was theirs), or null. */
  holderOf(em: EntityManager, chainId: string, address: string): Promise<Holder | null>;
  /** The investor of that id with its distributor, or null. */
  holderById(em: EntityManager, investorId: string): Promise<Holder | null>;
  chainMove(em: EntityManager, move: RegisterMove): Promise<{ balance: string; taken: LotPiece[] }>;
}
