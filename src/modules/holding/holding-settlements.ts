import type { EntityManager } from '@mikro-orm/postgresql';
import { Dec, decimalString } from '../../common/money';
import { rawRows } from '../../persistence/raw-query';
import { currentActor, currentPrincipal } from '../../common/request-scope';
import { appendEventRows, type NewEvent } from '../../events/event-log';
import { LotSource } from './holding-lot.entity';
import type { Settlement, SettleResult } from './holding-ledger.types';

/*
 * Orders' settlements as sets, for the holding ledger only (HoldingLedger.settle and
 * settleMany): the same rules as one move at a time (holding-moves.ts), with a few statements
 * whatever the number of orders, so a batch of a dealing date settles in one short transaction.
 * Every holding touched is created if need be and locked first (in key order: two batches
 * sharing holdings never wait on each other crosswise); then each order, in the given order, is
 * `already` (journaled before, or earlier in the list), `short`, or moves its holding: a lot in,
 * or the oldest lots out, a journal row and a `holding.changed` event, exactly as alone.
 */

type Key = string;
const keyOf = (investorId: string, shareClassId: string): Key => `${investorId}\u0000${shareClassId}`;

interface Lot {
  id: string | null;
  quantity: string;
  remaining: Dec;
  settledAt: Date;
  orderId?: string;
  investorId: string;
  shareClassId: string;
  taken: boolean;
}

export async function settleOrders(em: EntityManager, settlements: Settlement[]): Promise<Map<string, SettleResult>> {
  if (!em.isInTransaction()) throw new Error('the holding ledger works inside a transaction');
  const results = new Map<string, SettleResult>();
  if (!settlements.length) return results;
  const by = currentActor();
  const principal = currentPrincipal();
  const keys = [
    ...new Map(settlements.map((s) => [keyOf(s.order.investor.id, s.order.shareClass.id), { i: s.order.investor.id, s: s.order.shareClass.id }])).values(),
  ];
  const keysJson = JSON.stringify(keys);
  const first = settlements[0].at;
  await rawRows(
    em,
    `insert into holding (created_at, updated_at, created_by, updated_by, created_by_principal, updated_by_principal, investor_id, share_class_id, balance)
     select ?, ?, ?, ?, ?, ?, k->>'i', k->>'s', 0 from jsonb_array_elements(?::jsonb) k
     on conflict (investor_id, share_class_id) do nothing`,
    [first, first, by, by, principal, principal, keysJson],
  );
  const held = await rawRows<{ investor_id: string; share_class_id: string; balance: string }>(
    em,
    `select investor_id, share_class_id, balance::text from holding
     where (investor_id, share_class_id) in (select k->>'i', k->>'s' from jsonb_array_elements(?::jsonb) k)
     order by investor_id, share_class_id for update`,
    [keysJson],
  );
  const balances = new Map(held.map((h) => [keyOf(h.investor_id, h.share_class_id), new Dec(h.balance)]));
  const done = new Set(
    (
      await rawRows<{ order_id: string }>(em, 'select order_id from holding_movement where order_id = any(?::text[])', [settlements.map((s) => s.order.id)])
    ).map((r) => r.order_id),
  );
  const lots = await lotsOut(em, settlements);

  const newLots: Lot[] = [];
  const movements: Record<string, unknown>[] = [];
  const events: NewEvent[] = [];
  const touched = new Map<Key, { at: Date }>();
  for (const s of settlements) {
    const { id: orderId } = s.order;
    const [investorId, shareClassId] = [s.order.investor.id, s.order.shareClass.id];
    const key = keyOf(investorId, shareClassId);
    if (done.has(orderId)) {
      results.set(orderId, { outcome: 'already' });
      continue;
    }
    const into = s.order.type === 'subscription';
    const tokens = new Dec(s.tokens);
    const before = balances.get(key)!;
    if (!into && tokens.greaterThan(before)) {
      results.set(orderId, { outcome: 'short', balance: decimalString(before) });
      continue;
    }
    done.add(orderId);
    const change = into ? tokens : tokens.negated();
    const open = lots.get(key) ?? [];
    if (into) {
      const lot: Lot = { id: null, quantity: decimalString(tokens), remaining: tokens, settledAt: s.at, orderId, investorId, shareClassId, taken: false };
      newLots.push(lot);
      open.push(lot);
      lots.set(key, open);
    } else {
      // The oldest lots first; what no lot covers is left to the balance alone (as takeFromLots).
      let left = tokens;
      for (const lot of open) {
        if (left.lte(0)) break;
        const take = Dec.min(left, lot.remaining);
        if (!take.isPositive()) continue;
        lot.remaining = lot.remaining.minus(take);
        lot.taken = true;
        left = left.minus(take);
      }
    }
    const balance = before.plus(change);
    balances.set(key, balance);
    touched.set(key, { at: s.at });
    const [changeText, balanceText] = [decimalString(change), decimalString(balance)];
    movements.push({
      i: investorId,
      s: shareClassId,
      change: changeText,
      balance: balanceText,
      order_id: orderId,
      transfer_hash: s.transferHash ?? null,
      at: s.at.toISOString(),
    });
    events.push({
      type: 'holding.changed',
      aggregateType: 'holding',
      aggregateId: `${investorId}:${shareClassId}`,
      distributorId: s.order.distributor.id,
      occurredAt: s.at,
      payload: { investorId, shareClassId, orderId, transferHash: s.transferHash ?? null, change: changeText, balance: balanceText },
    });
    results.set(orderId, { outcome: 'moved', change: changeText, balance: balanceText });
  }
  if (!movements.length) return results;

  if (newLots.length) {
    const rows = newLots.map((l) => ({
      i: l.investorId,
      s: l.shareClassId,
      quantity: l.quantity,
      remaining: decimalString(l.remaining),
      settled_at: l.settledAt.toISOString(),
      order_id: l.orderId,
    }));
    await rawRows(
      em,
      `insert into holding_lot (created_at, updated_at, created_by, updated_by, created_by_principal, updated_by_principal, investor_id, share_class_id, quantity, remaining, settled_at, source, order_id)
       select (r->>'settled_at')::timestamptz, (r->>'settled_at')::timestamptz, ?, ?, ?, ?, r->>'i', r->>'s', (r->>'quantity')::numeric, (r->>'remaining')::numeric, (r->>'settled_at')::timestamptz, ?, r->>'order_id'
       from jsonb_array_elements(?::jsonb) with ordinality as e(r, n) order by e.n`,
      [by, by, principal, principal, LotSource.order, JSON.stringify(rows)],
    );
  }
  const taken = [...lots.values()].flat().filter((l) => l.id !== null && l.taken);
  if (taken.length) {
    const at = settlements[settlements.length - 1].at;
    await rawRows(
      em,
      `update holding_lot l set remaining = (r->>'remaining')::numeric, updated_at = ?, updated_by = ?, updated_by_principal = ?
       from jsonb_array_elements(?::jsonb) r where l.id = (r->>'id')::bigint`,
      [at, by, principal, JSON.stringify(taken.map((l) => ({ id: l.id, remaining: decimalString(l.remaining) })))],
    );
  }
  const holdings = [...touched].map(([key, t]) => {
    const [i, s] = key.split('\u0000');
    return { i, s, balance: decimalString(balances.get(key)!), at: t.at.toISOString() };
  });
  await rawRows(
    em,
    `update holding h set balance = (r->>'balance')::numeric, updated_at = (r->>'at')::timestamptz, updated_by = ?, updated_by_principal = ?
     from jsonb_array_elements(?::jsonb) r where h.investor_id = r->>'i' and h.share_class_id = r->>'s'`,
    [by, principal, JSON.stringify(holdings)],
  );
  await rawRows(
    em,
    `insert into holding_movement (created_at, updated_at, created_by, updated_by, created_by_principal, updated_by_principal, investor_id, share_class_id, change, balance, source, order_id, transfer_hash, at)
     select (r->>'at')::timestamptz, (r->>'at')::timestamptz, ?, ?, ?, ?, r->>'i', r->>'s', (r->>'change')::numeric, (r->>'balance')::numeric, ?, r->>'order_id', r->>'transfer_hash', (r->>'at')::timestamptz
     from jsonb_array_elements(?::jsonb) with ordinality as e(r, n) order by e.n`,
    [by, by, principal, principal, LotSource.order, JSON.stringify(movements)],
  );
  await appendEventRows(em, events);
  return results;
}

/** The open lots, oldest first, of the holdings a redemption among `settlements` takes from. */
async function lotsOut(em: EntityManager, settlements: Settlement[]): Promise<Map<Key, Lot[]>> {
  const out = new Map<Key, Lot[]>();
  const keys = [...new Set(settlements.filter((s) => s.order.type !== 'subscription').map((s) => keyOf(s.order.investor.id, s.order.shareClass.id)))];
  if (!keys.length) return out;
  const rows = await rawRows<{
    id: string;
    investor_id: string;
    share_class_id: string;
    quantity: string;
    remaining: string;
    settled_at: Date;
    order_id: string | null;
  }>(
    em,
    `select id::text, investor_id, share_class_id, quantity::text, remaining::text, settled_at, order_id from holding_lot
     where (investor_id, share_class_id) in (select k->>'i', k->>'s' from jsonb_array_elements(?::jsonb) k) and remaining > 0
     order by settled_at, id`,
    [JSON.stringify(keys.map((k) => ({ i: k.split('\u0000')[0], s: k.split('\u0000')[1] })))],
  );
  for (const r of rows) {
    const key = keyOf(r.investor_id, r.share_class_id);
    const lot: Lot = {
      id: r.id,
      quantity: r.quantity,
      remaining: new Dec(r.remaining),
      settledAt: new Date(r.settled_at),
      orderId: r.order_id ?? undefined,
      investorId: r.investor_id,
      shareClassId: r.share_class_id,
      taken: false,
    };
    const list = out.get(key);
    if (list) list.push(lot);
    else out.set(key, [lot]);
  }
  return out;
}
