import type { EntityManager } from '@mikro-orm/postgresql';
import { currentActor, currentPrincipal } from '../../common/request-scope';
import { Dec, decimalString } from '../../common/money';
import { appendEventRows, type NewEvent } from '../../events/event-log';
import type { LotSource } from './holding-lot.entity';
import { holdingKey, insertLot, openLotsOf, takeOldest, type BookedLot, type OpenLot, type TakenPiece } from './holding-lots';
import type { HoldingKey } from './holding-ledger.types';
import {
  insertEmptyHoldings,
  insertLots,
  insertMovements,
  lockedHoldingBalance,
  lockedHoldingBalances,
  updateHoldingBalances,
  updateLotsRemaining,
  type MovementRow,
  type Writer,
} from './holding.queries';

/*
 * The holding ledger's writes, for the ledger (holding-ledger.ts, holding-settlements.ts) only:
 * the row locks, and `applyMoves`, the one code that changes holdings. One move, a dealing
 * date's batch and a distribution's arrivals all go through it, with a few plain statements
 * whatever their number, so they cannot book a move differently.
 */

function assertInTransaction(em: EntityManager): void {
  if (!em.isInTransaction()) throw new Error('the holding ledger works inside a transaction');
}

/** Empty holdings where there are none yet, each created at its own instant, so that there is a row to lock. */
async function createHoldings(em: EntityManager, keys: readonly (HoldingKey & { at: Date })[]): Promise<void> {
  await insertEmptyHoldings(em, writer(), keys);
}

const writer = (): Writer => ({ by: currentActor(), principal: currentPrincipal() });

/** The one way a holding's row is locked alone (optionally created empty first at `createAt`, so there is a row to lock). Its balance. */
export async function lockRow(em: EntityManager, key: HoldingKey, createAt?: Date): Promise<Dec> {
  assertInTransaction(em);
  if (createAt) await createHoldings(em, [{ ...key, at: createAt }]);
  return new Dec((await lockedHoldingBalance(em, key)) ?? '0');
}

/**
 * The holdings of many moves locked, each created empty first where there is none (at its first
 * move's instant, as alone), in key order: two batches sharing holdings never wait on each other
 * crosswise. Their balances by `holdingKey`.
 */
export async function lockHoldings(em: EntityManager, moves: readonly (HoldingKey & { at: Date })[]): Promise<Map<string, Dec>> {
  assertInTransaction(em);
  const first = new Map<string, HoldingKey & { at: Date }>();
  for (const m of moves) {
    const key = holdingKey(m.investorId, m.shareClassId);
    if (!first.has(key)) first.set(key, { investorId: m.investorId, shareClassId: m.shareClassId, at: m.at });
  }
  const keys = [...first.values()];
  await createHoldings(em, keys);
  const held = await lockedHoldingBalances(em, keys);
  return new Map(held.map((h) => [holdingKey(h.investor_id, h.share_class_id), new Dec(h.balance)]));
}

/** One change of one holding. */
export interface Move extends HoldingKey {
  /** Signed: tokens in are positive, tokens out negative. */
  change: Dec;
  source: LotSource;
  at: Date;
  /** Tokens in: one lot settled here (default `at`)… */
  settledAt?: Date;
  /** …or these lots, their settlement dates kept. */
  lots?: TakenPiece[];
  orderId?: string;
  transferHash?: string;
  reason?: string;
  /** The `holding.changed` event: its distributor and its own facts besides investor, share class, change and balance. None for an opening. */
  event?: { distributorId: string; payload: Record<string, unknown> };
}

export interface Moved {
  change: string;
  balance: string;
  /** Tokens out: the pieces of lots taken, oldest first. */
  taken: TakenPiece[];
}

/**
 * Applies `moves`, in the given order, each exactly as it would apply alone after the ones before
 * it, to holdings this transaction locked (`balances`, by `holdingKey`, kept up to date here): tokens
 * in form lots (settled at `settledAt`, or the given ones); tokens out leave the oldest lots first,
 * and what no lot covers is left to the balance alone; then the balance, a journal row
 * (`holding_movement`) and the `holding.changed` event. It checks nothing: the caller decided
 * (free balance, lock-up, `short`). Returns what each move did, and the lots written.
 */
export async function applyMoves(em: EntityManager, balances: Map<string, Dec>, moves: readonly Move[]): Promise<{ moved: Moved[]; added: BookedLot[] }> {
  assertInTransaction(em);
  if (!moves.length) return { moved: [], added: [] };
  const by = writer();
  // The open lots of each holding some move takes from (and every lot of this list arriving there).
  const outKeys = moves.filter((m) => m.change.isNegative());
  const open = await openLotsOf(em, outKeys);
  for (const key of outKeys.map((k) => holdingKey(k.investorId, k.shareClassId))) if (!open.has(key)) open.set(key, []);
  const arriving: (OpenLot & { m: Move; quantity: string })[] = [];
  const takenFrom = new Set<OpenLot>();
  const touched = new Map<string, { m: Move; balance: string }>();
  const movements: MovementRow[] = [];
  const events: NewEvent[] = [];
  const moved: Moved[] = [];

  for (const m of moves) {
    const key = holdingKey(m.investorId, m.shareClassId);
    const before = balances.get(key);
    if (!before) throw new Error(`the holding ${m.investorId}/${m.shareClassId} is not locked`);
    const lots = open.get(key) ?? [];
    let taken: TakenPiece[] = [];
    if (m.change.isNegative()) {
      taken = takeOldest(lots, m.change.abs(), (lot) => {
        lot.takenAt = m.at;
        if (lot.id !== null) takenFrom.add(lot);
      });
    } else {
      for (const piece of m.lots ?? [{ quantity: decimalString(m.change), settledAt: m.settledAt ?? m.at }]) {
        const lot = { id: null, remaining: new Dec(piece.quantity), settledAt: new Date(piece.settledAt), m, quantity: decimalString(piece.quantity) };
        arriving.push(lot);
        if (open.has(key)) insertLot(lots, lot);
      }
    }
    const after = before.plus(m.change);
    balances.set(key, after);
    const [change, balance] = [decimalString(m.change), decimalString(after)];
    touched.set(key, { m, balance });
    moved.push({ change, balance, taken });
    movements.push({
      i: m.investorId,
      s: m.shareClassId,
      change,
      balance,
      source: m.source,
      order_id: m.orderId ?? null,
      transfer_hash: m.transferHash ?? null,
      reason: m.reason ?? null,
      at: m.at.toISOString(),
    });
    if (m.event)
      events.push({
        type: 'holding.changed',
        aggregateType: 'holding',
        aggregateId: `${m.investorId}:${m.shareClassId}`,
        distributorId: m.event.distributorId,
        occurredAt: m.at,
        payload: { investorId: m.investorId, shareClassId: m.shareClassId, ...m.event.payload, change, balance },
      });
  }

  const added = arriving.length
    ? (
        await insertLots(
          em,
          by,
          arriving.map((l) => ({
            i: l.m.investorId,
            s: l.m.shareClassId,
            quantity: l.quantity,
            remaining: decimalString(l.remaining),
            settled_at: l.settledAt.toISOString(),
            source: l.m.source,
            order_id: l.m.orderId ?? null,
            reason: l.m.reason ?? null,
            at: l.m.at.toISOString(),
            // Taken from by a later move of the list: last written then, as alone.
            updated_at: (l.takenAt ?? l.m.at).toISOString(),
          })),
        )
      ).map((r) => ({ id: r.id, remaining: decimalString(r.remaining), settledAt: new Date(r.settled_at) }))
    : [];
  if (takenFrom.size)
    await updateLotsRemaining(
      em,
      by,
      [...takenFrom].map((l) => ({ id: l.id!, remaining: decimalString(l.remaining), at: l.takenAt!.toISOString() })),
    );
  await updateHoldingBalances(
    em,
    by,
    [...touched.values()].map(({ m, balance }) => ({ i: m.investorId, s: m.shareClassId, balance, at: m.at.toISOString() })),
  );
  await insertMovements(em, by, movements);
  await appendEventRows(em, events);
  return { moved, added };
}
