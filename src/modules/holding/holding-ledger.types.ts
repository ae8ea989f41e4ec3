import type Decimal from 'decimal.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Dec } from '../../common/money';
import type { TakenPiece } from './holding-lots';

/** The holding ledger's vocabulary (holding-ledger.ts), shared with its helpers holding-moves.ts, holding-lots.ts and holding-settlements.ts. */

export interface HoldingKey {
  investorId: string;
  shareClassId: string;
}

/** A locked holding: `free = balance − reserved`. */
export interface LockedHolding extends HoldingKey {
  balance: Dec;
  reserved: Dec;
  free: Dec;
}

/**
 * What the ledger reads of the order book (implemented by the order module, order/open-orders.ts,
 * so that holdings do not import orders).
 */
export interface OpenOrders {
  /** Tokens promised to the investor's open redemptions of the share class. */
  reserved(em: EntityManager, key: HoldingKey): Promise<Dec>;
  /** Tokens expected from the investor's accepted subscriptions not yet settled. */
  expected(em: EntityManager, key: HoldingKey): Promise<Dec>;
}

/** The order a settlement moves tokens for (an Order entity fits). */
export interface SettlingOrder {
  id: string;
  type: 'subscription' | 'redemption';
  investor: { id: string };
  shareClass: { id: string };
  distributor: { id: string };
}

export interface Settlement {
  order: SettlingOrder;
  /** Tokens minted (subscription) or burned (redemption). */
  tokens: Decimal.Value;
  /** When they settled: the lot's lock-up counts from here; the event's instant. */
  at: Date;
  transferHash?: string;
}

export type SettleResult = { outcome: 'moved'; change: string; balance: string } | { outcome: 'already' } | { outcome: 'short'; balance: string };

export interface Adjustment extends HoldingKey {
  distributorId: string;
  /** Signed: positive books tokens in, negative takes them out. */
  quantity: Decimal.Value;
  reason: string;
  /** Booking instant (the event's). */
  at: Date;
  /** When the tokens settled: a positive adjustment's lot counts lock-up from here. */
  settledAt: Date;
}

export interface ChainMove extends HoldingKey {
  distributorId: string;
  /** Signed: tokens in are positive, tokens out negative. */
  change: Decimal.Value;
  at: Date;
  transferHash: string;
  reason: string;
  /** Tokens in: the lots they left, dates kept (a transfer between holders, an undone move); any rest settles at `at`. */
  lots?: TakenPiece[];
  /** The `holding.changed` event's own facts (the chain, the counterparty). */
  payload: Record<string, unknown>;
}

export interface Position {
  balance: string;
  unlocked: string;
  pendingIn: string;
  pendingOut: string;
}
