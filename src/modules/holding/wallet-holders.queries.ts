import type { EntityManager } from '@mikro-orm/postgresql';
import { rawRows } from '../../persistence/raw-query';

/*
 * Who holds a wallet, as the register knows it: what the chain follower asks the register
 * (src/modules/chain/register-port.ts, `holderOf`, `holderById`) for each transfer it observes,
 * so the chain adapter reads no investor table.
 */

/** A wallet's holder in the register: its investor, and the distributor owning that investor. */
export interface WalletHolder {
  investorId: string;
  distributorId: string;
}

/** The investor a wallet belongs to on this chain (a removed wallet still was theirs), or null. */
export async function walletHolder(em: EntityManager, chainId: string, address: string): Promise<WalletHolder | null> {
  const [row] = await rawRows<{ investor_id: string; distributor_id: string }>(
    em,
    `select w.investor_id, i.distributor_id from investor_wallet w join investor i on i.id = w.investor_id
     where w.chain_id = ? and lower(w.address) = ? order by (w.status = 'removed'), w.id desc limit 1`,
    [chainId, address],
  );
  return row ? { investorId: row.investor_id, distributorId: row.distributor_id } : null;
}

/** The investor of that id with its distributor, or null. */
export async function investorHolder(em: EntityManager, investorId: string): Promise<WalletHolder | null> {
  const [row] = await rawRows<{ distributor_id: string }>(em, 'select distributor_id from investor where id = ?', [investorId]);
  return row ? { investorId, distributorId: row.distributor_id } : null;
}
