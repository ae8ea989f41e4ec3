import type { EntityManager } from '@mikro-orm/postgresql';
import { zeroAddress } from 'viem';
import { rawRows } from '../../persistence/raw-query';

/** Who holds a wallet in the register: its investor, and the distributor owning that investor. */
export interface Holder {
  investorId: string;
  distributorId: string;
}

/** The investor a wallet belongs to on this chain (a removed wallet still was theirs), or null. */
export async function holderOf(em: EntityManager, chainId: string, address: string): Promise<Holder | null> {
  if (address === zeroAddress) return null;
  const [row] = await rawRows<{ investor_id: string; distributor_id: string }>(
    em,
    `select w.investor_id, i.distributor_id from investor_wallet w join investor i on i.id = w.investor_id
     where w.chain_id = ? and lower(w.address) = ? order by (w.status = 'removed'), w.id desc limit 1`,
    [chainId, address],
  );
  return row ? { investorId: row.investor_id, distributorId: row.distributor_id } : null;
}

/** The investor of that id with its distributor, or null. */
export async function holderById(em: EntityManager, investorId: string | undefined): Promise<Holder | null> {
  if (!investorId) return null;
  const [row] = await rawRows<{ distributor_id: string }>(em, 'select distributor_id from investor where id = ?', [investorId]);
  return row ? { investorId, distributorId: row.distributor_id } : null;
}

/** A holder's holding of a share class, as the holding ledger names it. */
export const holdingOf = (h: Holder, shareClassId: string) => ({ investorId: h.investorId, shareClassId, distributorId: h.distributorId });

/**
 * One side of a transfer as its own distributor is told it (`holding.changed`): its wallet, the
 * direction, and the counterparty — its investor and wallet when the same distributor holds it,
 * the wallet alone when the register does not know it, nothing when another distributor's
 * investor holds it (a distributor never learns another's investors).
 */
export function sideOf(own: Holder, other: Holder | null, ownWallet: string, otherWallet: string, direction: 'in' | 'out') {
  const counterparty = !other
    ? { investorId: null, wallet: otherWallet }
    : other.distributorId === own.distributorId
      ? { investorId: other.investorId, wallet: otherWallet }
      : null;
  return { wallet: ownWallet, direction, counterparty };
}
