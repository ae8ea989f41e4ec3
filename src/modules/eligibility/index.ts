import { EligibilityResolver } from './eligibility.resolver';
import { EligibilityRuleSet } from './eligibility-rule-set.entity';
import { nothing } from '../../access/duties';
import type { ModuleManifest } from '../../access/module-manifest';

// What other modules use of eligibility (they still import these files directly; issue 45 moves them behind this door).
export { batchIneligibility, refuseIneligible } from './eligibility';
export { eligibilityRulesEffect, investorCategory, investorCategoryEffect, readRules } from './eligibility-effects';
export type { EligibilityRulesArgs, EligibilityRulesInput, InvestorCategoryArgs } from './eligibility-effects';
export type { EligibilityRules } from './eligibility-rule-set.entity';
export type { EligibilityService } from './eligibility.service';
export { InvestorCategory } from './investor-category';

/** The eligibility module's manifest, collected by src/modules/manifests.ts. */
export const eligibilityModule: ModuleManifest = {
  name: 'eligibility',
  resolvers: [EligibilityResolver],
  entities: [EligibilityRuleSet],
  mutationRoles: {
    requestEligibilityRules: 'operator',
    requestInvestorCategory: 'operator',
    setInvestorCategory: 'operator',
    setInvestorKyc: 'operator',
  },
  queryRoles: {},
  mutationDuties: {
    /** Who may hold a class: four eyes on a rule set and on a category upgrade (src/modules/approval/eligibility-requests.ts); no token moves. */
    requestEligibilityRules: nothing,
    requestInvestorCategory: nothing,
    setInvestorCategory: nothing,
    setInvestorKyc: nothing,
  },
  visibility: {
    /** Who may hold a share class: operations' rules (the check answers a distributor only its refusal). */
    EligibilityRuleSet: 'ops',
  },
};
