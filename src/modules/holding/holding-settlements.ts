import type { EntityManager } from '@mikro-orm/postgresql';
import { Dec, decimalString } from '../../common/money';
import { LotSource } from './holding-lot.entity';
import { holdingKey } from './holding-lots';
import { applyMoves, lockHoldings, type Move } from './holding-moves';
import type { Settlement, SettleResult } from './holding-ledger.types';
import { ordersWithMovements } from './holding.queries';

/*
 * Orders' settlements, for the holding ledger only (HoldingLedger.settle and settleMany): what
 * each order does to its holding, decided in the given order, then moved by `applyMoves` with a
 * few statements whatever the number of orders, so a batch of a dealing date settles in one
 * short transaction. Every holding touched is created if need be and locked first; then each
 * order is `already` (journaled before, or earlier in the list), `short` (a redemption of more
 * than is held), or moves its holding: a lot in, or the oldest lots out.
 */

export async function settleOrders(em: EntityManager, settlements: Settlement[]): Promise<Map<string, SettleResult>> {
  const results = new Map<string, SettleResult>();
  if (!settlements.length) return results;
  const keys = settlements.map((s) => ({ investorId: s.order.investor.id, shareClassId: s.order.shareClass.id }));
  const balances = await lockHoldings(
    em,
    keys.map((k, n) => ({ ...k, at: settlements[n].at })),
  );
  const done = await ordersWithMovements(
    em,
    settlements.map((s) => s.order.id),
  );
  // The balances after each decided move (as applyMoves will write them): a redemption is short against the moves before it.
  const after = new Map(balances);
  const moves: Move[] = [];
  for (const [n, s] of settlements.entries()) {
    const { id: orderId } = s.order;
    const key = holdingKey(keys[n].investorId, keys[n].shareClassId);
    if (done.has(orderId)) {
      results.set(orderId, { outcome: 'already' });
      continue;
    }
    const tokens = new Dec(s.tokens);
    const before = after.get(key)!;
    const into = s.order.type === 'subscription';
    if (!into && tokens.greaterThan(before)) {
      results.set(orderId, { outcome: 'short', balance: decimalString(before) });
      continue;
    }
    done.add(orderId);
    const change = into ? tokens : tokens.negated();
    const balance = before.plus(change);
    after.set(key, balance);
    results.set(orderId, { outcome: 'moved', change: decimalString(change), balance: decimalString(balance) });
    moves.push({
      ...keys[n],
      change,
      source: LotSource.order,
      at: s.at,
      orderId,
      transferHash: s.transferHash,
      event: { distributorId: s.order.distributor.id, payload: { orderId, transferHash: s.transferHash ?? null } },
    });
  }
  await applyMoves(em, balances, moves);
  return results;
}
