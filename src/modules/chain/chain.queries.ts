import type { EntityManager } from '@mikro-orm/postgresql';
import { rawRows } from '../../persistence/raw-query';

/** The chain module's SQL (docs/architecture.md, "SQL"): the lease of an agent key (chain_signer). */

/**
 * Takes or renews the key's lease for `owner` for `seconds`; answers whether it holds it. Kept as
 * SQL: `on conflict … do update … where` decides the race between instances in one statement.
 */
export async function takeSignerLease(em: EntityManager, key: { chainId: string; address: string | null }, owner: string, seconds: number): Promise<boolean> {
  const rows = await rawRows<{ next_nonce: string }>(
    em,
    `insert into chain_signer (chain_id, address, next_nonce, lease_owner, lease_until) values (?, ?, 0, ?, now() + make_interval(secs => ?))
     on conflict (chain_id, address) do update set lease_owner = excluded.lease_owner, lease_until = excluded.lease_until
     where chain_signer.lease_owner = excluded.lease_owner or chain_signer.lease_until is null or chain_signer.lease_until < now()
     returning next_nonce`,
    [key.chainId, key.address, owner, seconds],
  );
  return rows.length > 0;
}

/** Gives up every lease `owner` holds. Kept as SQL: one statement over the owner's rows, whichever the identity map holds. */
export async function releaseSignerLeases(em: EntityManager, owner: string): Promise<void> {
  await rawRows(em, `update chain_signer set lease_until = null where lease_owner = ?`, [owner]);
}
