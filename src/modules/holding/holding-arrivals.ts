import type { EntityManager } from '@mikro-orm/postgresql';
import { Dec, decimalString } from '../../common/money';
import { rawRows } from '../../persistence/raw-query';
import { currentActor, currentPrincipal } from '../../common/request-scope';
import { appendEventRows, type NewEvent } from '../../events/event-log';
import { LotSource } from './holding-lot.entity';
import type { ChainMove } from './holding-ledger.types';

/*
 * Tokens arriving on chain into many holdings at once (a distribution's batchMint), for the
 * holding ledger only (HoldingLedger.chainMoveMany): each move exactly as `chainMove` books tokens
 * in without lots (a lot settled at `at`, the balance, a journal row, a `holding.changed` event),
 * with a few statements whatever their number. Every holding touched is created if need be and
 * locked first, in key order (as holding-settlements.ts: two batches never wait crosswise).
 */

const keyOf = (investorId: string, shareClassId: string) => `${investorId}\u0000${shareClassId}`;

export async function arriveMany(em: EntityManager, moves: ChainMove[]): Promise<void> {
  if (!em.isInTransaction()) throw new Error('the holding ledger works inside a transaction');
  if (!moves.length) return;
  for (const m of moves) {
    if (m.lots?.length || !new Dec(m.change).isPositive()) throw new Error('arriveMany books tokens in, without lots: use chainMove');
  }
  const by = currentActor();
  const principal = currentPrincipal();
  const keys = [...new Map(moves.map((m) => [keyOf(m.investorId, m.shareClassId), { i: m.investorId, s: m.shareClassId }])).values()];
  const keysJson = JSON.stringify(keys);
  const first = moves[0].at;
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
  const lots: Record<string, unknown>[] = [];
  const movements: Record<string, unknown>[] = [];
  const events: NewEvent[] = [];
  const touched = new Map<string, Date>();
  for (const m of moves) {
    const key = keyOf(m.investorId, m.shareClassId);
    const change = decimalString(new Dec(m.change));
    const balance = decimalString(balances.get(key)!.plus(change));
    balances.set(key, new Dec(balance));
    touched.set(key, m.at);
    const at = m.at.toISOString();
    lots.push({ i: m.investorId, s: m.shareClassId, quantity: change, at, reason: m.reason });
    movements.push({ i: m.investorId, s: m.shareClassId, change, balance, transfer_hash: m.transferHash, reason: m.reason, at });
    events.push({
      type: 'holding.changed',
      aggregateType: 'holding',
      aggregateId: `${m.investorId}:${m.shareClassId}`,
      distributorId: m.distributorId,
      occurredAt: m.at,
      payload: { investorId: m.investorId, shareClassId: m.shareClassId, transferHash: m.transferHash, ...m.payload, change, balance },
    });
  }
  await rawRows(
    em,
    `insert into holding_lot (created_at, updated_at, created_by, updated_by, created_by_principal, updated_by_principal, investor_id, share_class_id, quantity, remaining, settled_at, source, reason)
     select (r->>'at')::timestamptz, (r->>'at')::timestamptz, ?, ?, ?, ?, r->>'i', r->>'s', (r->>'quantity')::numeric, (r->>'quantity')::numeric, (r->>'at')::timestamptz, ?, r->>'reason'
     from jsonb_array_elements(?::jsonb) with ordinality as e(r, n) order by e.n`,
    [by, by, principal, principal, LotSource.transfer, JSON.stringify(lots)],
  );
  const holdings = [...touched].map(([key, at]) => {
    const [i, s] = key.split('\u0000');
    return { i, s, balance: decimalString(balances.get(key)!), at: at.toISOString() };
  });
  await rawRows(
    em,
    `update holding h set balance = (r->>'balance')::numeric, updated_at = (r->>'at')::timestamptz, updated_by = ?, updated_by_principal = ?
     from jsonb_array_elements(?::jsonb) r where h.investor_id = r->>'i' and h.share_class_id = r->>'s'`,
    [by, principal, JSON.stringify(holdings)],
  );
  await rawRows(
    em,
    `insert into holding_movement (created_at, updated_at, created_by, updated_by, created_by_principal, updated_by_principal, investor_id, share_class_id, change, balance, source, transfer_hash, reason, at)
     select (r->>'at')::timestamptz, (r->>'at')::timestamptz, ?, ?, ?, ?, r->>'i', r->>'s', (r->>'change')::numeric, (r->>'balance')::numeric, ?, r->>'transfer_hash', r->>'reason', (r->>'at')::timestamptz
     from jsonb_array_elements(?::jsonb) with ordinality as e(r, n) order by e.n`,
    [by, by, principal, principal, LotSource.transfer, JSON.stringify(movements)],
  );
  await appendEventRows(em, events);
}
