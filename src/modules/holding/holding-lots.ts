import type Decimal from 'decimal.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Dec, decimalString } from '../../common/money';
import { Investor } from '../investor/investor.entity';
import { ShareClass } from '../share-class/share-class.entity';
import { HoldingLot, LotSource } from './holding-lot.entity';

/*
 * The lots of a holding. Only the holding ledger (holding-ledger.ts) changes them, under the
 * holding's row lock, so lots change under the same lock as the balance.
 */

/** A new lot of `quantity` tokens settled at `settledAt`. */
export function addLot(
  em: EntityManager,
  lot: { investorId: string; shareClassId: string; quantity: Decimal.Value; settledAt: Date; source: LotSource; orderId?: string; reason?: string },
): HoldingLot {
  const quantity = decimalString(lot.quantity);
  return em.create(HoldingLot, {
    investor: em.getReference(Investor, lot.investorId),
    shareClass: em.getReference(ShareClass, lot.shareClassId),
    quantity,
    remaining: quantity,
    settledAt: lot.settledAt,
    source: lot.source,
    orderId: lot.orderId,
    reason: lot.reason,
  });
}

/** The lots with tokens left, oldest first. */
export function openLots(em: EntityManager, investorId: string, shareClassId: string): Promise<HoldingLot[]> {
  return em.find(HoldingLot, { investor: investorId, shareClass: shareClassId, remaining: { $gt: '0' } }, { orderBy: { settledAt: 'asc', id: 'asc' } });
}

/** A part of a lot taken out: how many tokens, and when the lot they came from settled. */
export interface TakenPiece {
  quantity: string;
  settledAt: Date;
}

/**
 * Takes `quantity` tokens from the oldest lots first; what no lot covers is left to the balance
 * alone. Returns the pieces taken (so that a move undone can put them back as they were).
 */
export async function takeFromLots(em: EntityManager, investorId: string, shareClassId: string, quantity: Decimal.Value): Promise<TakenPiece[]> {
  let left = new Dec(quantity);
  const taken: TakenPiece[] = [];
  for (const lot of await openLots(em, investorId, shareClassId)) {
    if (left.lte(0)) break;
    const take = Dec.min(left, lot.remaining);
    lot.remaining = decimalString(new Dec(lot.remaining).minus(take));
    left = left.minus(take);
    if (take.isPositive()) taken.push({ quantity: decimalString(take), settledAt: lot.settledAt });
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
