import type { EntityManager } from '@mikro-orm/postgresql';
import { ISO_3166_NUMERIC } from '../../common/iso-3166-numeric';
import type { ChainService, ComplianceRules } from '../chain';
import { EligibilityRuleSet, type EligibilityRules } from './eligibility-rule-set.entity';
import { holderWalletsOn, ruleSetTokens } from './eligibility.queries';
import { ShareClass } from '../share-class';

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
  const code = (await em.findOne(ShareClass, shareClassId))?.subRedemption.eligibleInvestors;
  const set = code ? await em.findOne(EligibilityRuleSet, { code }) : null;
  return complianceRulesOf(set);
}

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
  const tokens = await ruleSetTokens(em, after.code);
  for (const t of tokens) {
    if (!chain.writes(t.chain_id)) continue;
    await chain.changeCompliance(
      em,
      { chainId: t.chain_id, address: t.contract_address, decimals: t.decimals, holders: await holderWalletsOn(em, t.share_class_id, t.chain_id) },
      from,
      to,
      `rule set ${after.code} on ${t.contract_address}`,
    );
  }
  chain.wake();
}
