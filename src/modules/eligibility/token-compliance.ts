import type { EntityManager } from '@mikro-orm/postgresql';
import { ISO_3166_NUMERIC } from '../../common/iso-3166-numeric';
import { rawRows } from '../../persistence/raw-query';
import type { ChainService, ComplianceRules } from '../chain';
import { EligibilityRuleSet, type EligibilityRules } from './eligibility-rule-set.entity';

/*
 * The part of a rule set the token itself enforces (issue 46, docs/compliance.md): countries
 * (CountryAllowModule / CountryRestrictModule, reading the ISO 3166-1 numeric country each
 * wallet is registered with), the maximum holding (MaxBalanceModule, per identity) and the supply
 * cap (SupplyLimitModule). Categories, KYC and the holder count stay the gateway's check
 * (eligibility.ts): T-REX 4.1.6 has no module for them.
 */

const numeric = (codes: string[]) => codes.map((c) => ISO_3166_NUMERIC[c]).filter((n): n is number => n !== undefined);

/** What the token enforces of the rules; null when nothing (no rule set, or only gateway rules). */
export function complianceRulesOf(rules: EligibilityRules | null): ComplianceRules | null {
  if (!rules) return null;
  const out: ComplianceRules = {
    allowedCountries: rules.allowedCountries ? numeric(rules.allowedCountries) : null,
    blockedCountries: numeric(rules.blockedCountries),
    maxBalance: rules.maxHoldingPerInvestor,
    supplyLimit: rules.supplyCap,
  };
  const none = out.allowedCountries === null && !out.blockedCountries.length && out.maxBalance === null && out.supplyLimit === null;
  return none ? null : out;
}

const sameRules = (a: ComplianceRules | null, b: ComplianceRules | null) => JSON.stringify(a) === JSON.stringify(b);

/** The token rules of a share class now: its `eligibleInvestors` code's rule set, for a token deployed for it. */
export async function tokenComplianceRules(em: EntityManager, shareClassId: string): Promise<ComplianceRules | null> {
  const [row] = await rawRows<{ code: string | null }>(em, `select sub_redemption->>'eligible_investors' as code from share_class where id = ?`, [
    shareClassId,
  ]);
  const set = row?.code ? await em.findOne(EligibilityRuleSet, { code: row.code }) : null;
  return complianceRulesOf(set);
}

/* The gateway's tokens of every share class naming the code, on chains it knows the registry of. */
const TOKENS_SQL = `select t.share_class_id, t.chain_id, t.contract_address, t.decimals from token t
  join share_class sc on sc.id = t.share_class_id
  where sc.sub_redemption->>'eligible_investors' = ? and t.identity_registry is not null order by t.id`;

/* The wallets on the chain of the class's holders (MaxBalanceModule is told what each identity holds). */
const HOLDER_WALLETS_SQL = `select distinct w.address from investor_wallet w join holding h on h.investor_id = w.investor_id
  where h.share_class_id = ? and h.balance > 0 and w.chain_id = ? order by w.address`;

/**
 * Carries an approved rule change to the tokens of the share classes that name the rule set, in
 * the approver's transaction: per token on a chain the gateway writes to, the sequence of
 * `compliance` intents that binds, sets or removes its modules (ChainService.changeCompliance).
 * Nothing when the token's part of the rules did not change.
 */
export async function carryRuleChange(em: EntityManager, chain: ChainService | null, before: EligibilityRules | null, after: EligibilityRules): Promise<void> {
  const from = complianceRulesOf(before);
  const to = complianceRulesOf(after);
  if (!chain || sameRules(from, to)) return;
  const tokens = await rawRows<{ share_class_id: string; chain_id: string; contract_address: string; decimals: number }>(em, TOKENS_SQL, [after.code]);
  for (const t of tokens) {
    if (!chain.writes(t.chain_id)) continue;
    const holders = await rawRows<{ address: string }>(em, HOLDER_WALLETS_SQL, [t.share_class_id, t.chain_id]);
    await chain.changeCompliance(
      em,
      { chainId: t.chain_id, address: t.contract_address, decimals: t.decimals, holders: holders.map((h) => h.address) },
      from,
      to,
      `rule set ${after.code} on ${t.contract_address}`,
    );
  }
  chain.wake();
}
