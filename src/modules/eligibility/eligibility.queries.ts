import type { EntityManager } from '@mikro-orm/postgresql';
import { rawRows } from '../../persistence/raw-query';

/**
 * The eligibility module's SQL for the token's rules (docs/architecture.md, "SQL").
 *
 * Kept as SQL, no benchmark pays for it: the share class's code is a field of its `sub_redemption`
 * jsonb, for which the ORM has no operator.
 */

/** The eligibility code (`eligibleInvestors`) a share class names, or null. */
export async function eligibilityCodeOf(em: EntityManager, shareClassId: string): Promise<string | null> {
  const [row] = await rawRows<{ code: string | null }>(em, `select sub_redemption->>'eligible_investors' as code from share_class where id = ?`, [
    shareClassId,
  ]);
  return row?.code ?? null;
}

/** A token of a share class naming a rule set, on a chain whose identity registry the gateway knows. */
export interface RuleSetTokenRow {
  share_class_id: string;
  chain_id: string;
  contract_address: string;
  decimals: number;
}

/** The gateway's tokens of every share class naming the code, on chains it knows the registry of. */
export function ruleSetTokens(em: EntityManager, code: string): Promise<RuleSetTokenRow[]> {
  return rawRows<RuleSetTokenRow>(
    em,
    `select t.share_class_id, t.chain_id, t.contract_address, t.decimals from token t
       join share_class sc on sc.id = t.share_class_id
      where sc.sub_redemption->>'eligible_investors' = ? and t.identity_registry is not null order by t.id`,
    [code],
  );
}

/** The wallets on the chain of the class's holders (MaxBalanceModule is told what each identity holds). */
export async function holderWalletsOn(em: EntityManager, shareClassId: string, chainId: string): Promise<string[]> {
  const rows = await rawRows<{ address: string }>(
    em,
    `select distinct w.address from investor_wallet w join holding h on h.investor_id = w.investor_id
      where h.share_class_id = ? and h.balance > 0 and w.chain_id = ? order by w.address`,
    [shareClassId, chainId],
  );
  return rows.map((r) => r.address);
}
