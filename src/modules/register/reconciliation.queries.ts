import type { EntityManager } from '@mikro-orm/postgresql';
import { rawRows } from '../../persistence/raw-query';

/** Each investor's register balance in a share class. */
export function registerBalances(em: EntityManager, shareClassId: string): Promise<{ investor_id: string; balance: string }[]> {
  return rawRows(em, 'select investor_id, balance::text from holding where share_class_id = ?', [shareClassId]);
}

/** The wallets (lower-cased) on a chain of the investors holding or granted a share class. */
export function walletsOnChain(em: EntityManager, chainId: string, shareClassId: string): Promise<{ investor_id: string; address: string }[]> {
  return rawRows(
    em,
    `select w.investor_id, lower(w.address) as address from investor_wallet w where w.chain_id = ?
       and (w.investor_id in (select investor_id from holding where share_class_id = ?) or w.investor_id in (select investor_id from investor_grant where share_class_id = ?))`,
    [chainId, shareClassId, shareClassId],
  );
}

/** Every share class with a token. */
export async function shareClassesWithToken(em: EntityManager): Promise<string[]> {
  return (await rawRows<{ share_class_id: string }>(em, 'select distinct share_class_id from token', [])).map((r) => r.share_class_id);
}

/** One scheduled run's result, recorded for /metrics and ops (`reconciliation_run`). */
export async function recordRun(
  em: EntityManager,
  run: { shareClassId: string; chainId: string; blockNumber: string; totalDifference: string; supplyDifference: string; result: unknown; at: Date },
): Promise<void> {
  await rawRows(
    em,
    'insert into reconciliation_run (share_class_id, chain_id, block_number, total_difference, supply_difference, result, at) values (?, ?, ?, ?, ?, ?::jsonb, ?)',
    [run.shareClassId, run.chainId, run.blockNumber, run.totalDifference, run.supplyDifference, JSON.stringify(run.result), run.at],
  );
}
