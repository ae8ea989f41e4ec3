import type Decimal from 'decimal.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Dec, decimalString } from '../../common/money';
import { openLotRows } from './holding.queries';
import type { LotView } from '../dealing';

/*
 * The lots of a holding and the rule of first in, first out. Only the holding ledger
 * (holding-moves.ts) changes lots, under the holding's row lock, so lots change under the same
 * lock as the balance; the register at a date (register/lots-at.ts) replays them by the same
 * functions.
 */

/** A lot being worked on: what is left of it, and when it settled. */
export interface WorkingLot {
  remaining: Dec;
  settledAt: Date;
}

/** A lot with tokens left, read for a move: `id` null while it is a lot of this move not yet written. */
export interface OpenLot extends WorkingLot {
  id: string | null;
  /** When a move last took from it (it is written back then). */
  takenAt?: Date;
}

/** A lot a move wrote: its id, what is left of it and when it settled (to freeze it on chain while in lock-up). */
export interface BookedLot {
  id: string;
  remaining: string;
  settledAt: Date;
}

/** A part of a lot taken out: how many tokens, and when the lot they came from settled. */
export interface TakenPiece {
  quantity: string;
  settledAt: Date;
}

export const holdingKey = (investorId: string, shareClassId: string): string => `${investorId}\u0000${shareClassId}`;

/** The open lots of each holding of `keys`, oldest settled first (by id at one instant), by `holdingKey`. */
export async function openLotsOf(em: EntityManager, keys: readonly { investorId: string; shareClassId: string }[]): Promise<Map<string, OpenLot[]>> {
  const out = new Map<string, OpenLot[]>();
  if (!keys.length) return out;
  const rows = await openLotRows(em, keys);
  for (const r of rows) {
    const key = holdingKey(r.investor_id, r.share_class_id);
    const lot: OpenLot = { id: r.id, remaining: new Dec(r.remaining), settledAt: new Date(r.settled_at) };
    const list = out.get(key);
    if (list) list.push(lot);
    else out.set(key, [lot]);
  }
  return out;
}

/** The lots of one holding with tokens left, oldest first: what lock-up counts. */
export async function openLots(em: EntityManager, investorId: string, shareClassId: string): Promise<LotView[]> {
  return (await openLotsOf(em, [{ investorId, shareClassId }])).get(holdingKey(investorId, shareClassId)) ?? [];
}

/** Puts an arriving lot among `open` (oldest first) after every lot settled at or before it: where a later read would find it. */
export function insertLot<L extends WorkingLot>(open: L[], lot: L): void {
  const i = open.findIndex((l) => l.settledAt.getTime() > lot.settledAt.getTime());
  open.splice(i < 0 ? open.length : i, 0, lot);
}

/**
 * Takes `quantity` tokens from the oldest lots of `open` first (their `remaining` falls); what no
 * lot covers is left to the balance alone. Returns the pieces taken (so that a move undone can
 * put them back as they were), and calls `took` with each lot taken from.
 */
export function takeOldest<L extends WorkingLot>(open: readonly L[], quantity: Decimal.Value, took?: (lot: L) => void): TakenPiece[] {
  let left = new Dec(quantity);
  const taken: TakenPiece[] = [];
  for (const lot of open) {
    if (left.lte(0)) break;
    const take = Dec.min(left, lot.remaining);
    // gt(0), not isPositive(): decimal.js counts 0 as positive, and a lot emptied earlier gives nothing.
    if (!take.gt(0)) continue;
    lot.remaining = lot.remaining.minus(take);
    left = left.minus(take);
    took?.(lot);
    taken.push({ quantity: decimalString(take), settledAt: lot.settledAt });
  }
  return taken;
}

/**
 * The lots `quantity` tokens arrive as when they left `pieces` (a transfer between holders, a
 * move undone): each piece keeps its settlement date, first in first out as they were taken; what
 * no piece covers counts from `at`.
 */
export function piecesCovering(pieces: readonly TakenPiece[], quantity: Decimal.Value, at: Date): TakenPiece[] {
  const lots = pieces.map((p) => ({ quantity: p.quantity, settledAt: new Date(p.settledAt) }));
  const rest = new Dec(quantity).minus(lots.reduce((sum, l) => sum.plus(l.quantity), new Dec(0)));
  // gt(0), not isPositive(): decimal.js counts 0 as positive, which made an empty lot.
  if (rest.gt(0)) lots.push({ quantity: decimalString(rest), settledAt: at });
  return lots;
}
