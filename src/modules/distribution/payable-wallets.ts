import type { EntityManager } from '@mikro-orm/postgresql';
import { rawRows } from '../../persistence/raw-query';
import { WalletStatus } from '../investor';

/** Why a holder's tokens could not be minted at all: no wallet of theirs is whitelisted on the token's chain. */
export const noPayableWallet = (investorId: string, chainId: string) => `investor ${investorId} has no whitelisted wallet on chain ${chainId}`;

/**
 * The wallet each investor's reinvested tokens are minted to: their oldest wallet whitelisted on
 * the token's chain (the register is per investor; any of their own wallets keeps it whole).
 * Whitelisted means the custody rule's `own` and the token's identity check both hold.
 */
export async function payableWallets(em: EntityManager, chainId: string, investorIds: string[]): Promise<Map<string, string>> {
  if (!investorIds.length) return new Map();
  const rows = await rawRows<{ investor_id: string; address: string }>(
    em,
    `select distinct on (investor_id) investor_id, lower(address) as address from investor_wallet
     where chain_id = ? and status = '${WalletStatus.whitelisted}' and investor_id = any(?::text[])
     order by investor_id, id`,
    [chainId, `{${investorIds.join(',')}}`],
  );
  return new Map(rows.map((r) => [r.investor_id, r.address]));
}
