import type { EntityManager } from '@mikro-orm/postgresql';
import { rawRows } from '../../persistence/raw-query';
import { WalletStatus } from './investor.entity';

/* The investor module's SQL (docs/architecture.md, "SQL"): the custody rule (wallet-custody.ts). */

/** The rule in SQL, for many addresses at once (a dealing date's rows): one statement, index lookups on lower(address). */
const CUSTODY_SQL = `select r->>'key' as key,
    exists (select 1 from investor_wallet w where w.investor_id = r->>'investorId' and w.chain_id = r->>'chainId'
      and lower(w.address) = lower(r->>'address') and w.status <> '${WalletStatus.removed}') as own,
    exists (select 1 from distributor_wallet dw where dw.distributor_id = coalesce(r->>'holdFor', '') and dw.chain_id = r->>'chainId'
      and lower(dw.address) = lower(r->>'address')) as held,
    exists (select 1 from address_claim c where c.address = lower(r->>'address')
      and not (c.holder_kind = 'investor' and c.holder_id = r->>'investorId')) as known
  from jsonb_array_elements(?::jsonb) r`;

/** What the register says of one queried address: the investor's own wallet, the `hold` distributor's, someone else's. */
export interface CustodyRow<K extends string> {
  key: K;
  own: boolean;
  held: boolean;
  known: boolean;
}

/**
 * The custody rule's facts for many addresses at once, each query's fields bound in one jsonb array.
 * Paid by: `npm run bench:settlement` and `npm run bench:nav-correction` (docs/benchmarks.md,
 * "Settlement on chain", "NAV correction over 1,000 settled orders": the custody rule for every
 * wallet of a batch in one statement).
 */
export function custodyRows<K extends string>(
  em: EntityManager,
  queries: { key: K; investorId: string; chainId: string; address: string; holdFor?: string | null }[],
): Promise<CustodyRow<K>[]> {
  return rawRows<CustodyRow<K>>(em, CUSTODY_SQL, [JSON.stringify(queries)]);
}

/**
 * Whether the address was ever claimed by another holder than (kind, id). Kept as SQL, no benchmark
 * pays for it: it is asked inside the writers' transactions racing on the claim's unique index, and
 * `em.count` would flush their unit of work first (FlushMode.AUTO), changing when their inserts are
 * sent; moving it is left to a change that tests those races.
 */
export async function addressClaimedByAnother(em: EntityManager, holderKind: string, holderId: string, address: string): Promise<boolean> {
  const [row] = await rawRows<{ taken: boolean }>(
    em,
    `select exists (select 1 from address_claim c where c.address = lower(?) and not (c.holder_kind = ? and c.holder_id = ?)) as taken`,
    [address, holderKind, holderId],
  );
  return row.taken;
}
