import type { EntityManager } from '@mikro-orm/postgresql';
import { runInScope } from '../../src/common/request-scope';
import { EligibilityRuleSet } from '../../src/modules/eligibility/eligibility-rule-set.entity';

/** A rule set in force, written as an approved request would (its four eyes: test/chain/eligibility.test.ts); by default no rule at all. */
export function aRuleSet(em: EntityManager, code: string, over: Partial<EligibilityRuleSet> = {}): Promise<EligibilityRuleSet> {
  return runInScope({ actor: 'factory' }, async () => {
    const ruleSet = em.create(EligibilityRuleSet, {
      code,
      allowedCountries: null,
      blockedCountries: [],
      allowedCategories: null,
      maxHolders: null,
      maxHoldingPerInvestor: null,
      supplyCap: null,
      ...over,
    });
    await em.flush();
    return ruleSet;
  });
}
