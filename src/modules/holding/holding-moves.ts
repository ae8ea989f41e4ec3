import type { EntityManager } from '@mikro-orm/postgresql';
import { currentActor, currentPrincipal } from '../../common/request-scope';
import { Dec, decimalString } from '../../common/money';
import { rawRows } from '../../persistence/raw-query';
import { appendEvent } from '../../events/event-log';
import { Investor } from '../investor/investor.entity';
import { ShareClass } from '../share-class/share-class.entity';
import type { HoldingLot, LotSource } from './holding-lot.entity';
import { addLot, takeFromLots, type TakenPiece } from './holding-lots';
import { HoldingMovement } from './holding-movement.entity';
import type { HoldingKey } from './holding-ledger.types';

/*
 * One holding's change at a time, for the holding ledger (holding-ledger.ts) only: its row lock
 * and its move (lots, balance, journal, event). The set-based settlement of many orders is
 * holding-settlements.ts, under the same rules.
 */

/** The one way a holding's row is locked (optionally created empty first, so there is a row to lock). */
export async function lockRow(em: EntityManager, key: HoldingKey, createAt?: Date): Promise<Dec> {
  if (!em.isInTransaction()) throw new Error('the holding ledger works inside a transaction');
  if (createAt) {
    const by = currentActor();
    const principal = currentPrincipal();
    await rawRows(
      em,
      'insert into holding (created_at, updated_at, created_by, updated_by, created_by_principal, updated_by_principal, investor_id, share_class_id, balance) values (?, ?, ?, ?, ?, ?, ?, ?, 0) on conflict (investor_id, share_class_id) do nothing',
      [createAt, createAt, by, by, principal, principal, key.investorId, key.shareClassId],
    );
  }
  const [row] = await rawRows<{ balance: string }>(em, 'select balance::text from holding where investor_id = ? and share_class_id = ? for update', [
    key.investorId,
    key.shareClassId,
  ]);
  return new Dec(row?.balance ?? '0');
}

export interface Move {
  source: LotSource;
  at: Date;
  settledAt: Date;
  orderId?: string;
  transferHash?: string;
  reason?: string;
  /** Tokens in: these lots instead of one settled at `settledAt`. */
  lots?: TakenPiece[];
  /** Tokens out: the pieces of lots taken are pushed here. */
  taken?: TakenPiece[];
  /** Tokens in: the lots added are pushed here (flushed, with their ids). */
  added?: HoldingLot[];
  /** The `holding.changed` event: its distributor and its own facts besides investor, share class, change and balance. */
  event?: { distributorId: string; payload: Record<string, unknown> };
}

/** Applies `change` to a locked holding: lots, balance, journal row, event (but for an opening); flushed. Returns the new balance. */
export async function move(em: EntityManager, held: HoldingKey & { balance: Dec }, change: Dec, m: Move): Promise<string> {
  const { investorId, shareClassId } = held;
  if (change.isPositive()) {
    for (const lot of m.lots ?? [{ quantity: change, settledAt: m.settledAt }]) {
      const added = addLot(em, {
        investorId,
        shareClassId,
        quantity: lot.quantity,
        settledAt: new Date(lot.settledAt),
        source: m.source,
        orderId: m.orderId,
        reason: m.reason,
      });
      m.added?.push(added);
    }
  } else {
    // Taken first, then reported: `m.taken?.push(await …)` would skip the taking when no one asks.
    const taken = await takeFromLots(em, investorId, shareClassId, change.abs());
    m.taken?.push(...taken);
  }
  const balance = decimalString(held.balance.plus(change));
  await rawRows(em, 'update holding set balance = ?, updated_at = ?, updated_by = ?, updated_by_principal = ? where investor_id = ? and share_class_id = ?', [
    balance,
    m.at,
    currentActor(),
    currentPrincipal(),
    investorId,
    shareClassId,
  ]);
  em.create(HoldingMovement, {
    investor: em.getReference(Investor, investorId),
    shareClass: em.getReference(ShareClass, shareClassId),
    change: decimalString(change),
    balance,
    source: m.source,
    orderId: m.orderId,
    transferHash: m.transferHash,
    reason: m.reason,
    at: m.at,
  });
  if (m.event) {
    appendEvent(em, {
      type: 'holding.changed',
      aggregateType: 'holding',
      aggregateId: `${investorId}:${shareClassId}`,
      distributorId: m.event.distributorId,
      occurredAt: m.at,
      payload: { investorId, shareClassId, ...m.event.payload, change: decimalString(change), balance },
    });
  }
  await em.flush();
  return balance;
}
