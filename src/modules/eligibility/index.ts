import { EligibilityResolver } from './eligibility.resolver';
import { EligibilityRuleSet } from './eligibility-rule-set.entity';
import { nothing } from '../../access/duties';
import type { ModuleManifest } from '../../access/module-manifest';
import type { EligibilityService } from './eligibility.service';

// What other modules use of eligibility: they import it from here, never from its files.
export { batchIneligibility, holderIneligibility, refuseIneligible } from './eligibility';
export { eligibilityRulesEffect, investorCategory, investorCategoryEffect, readRules } from './eligibility-effects';
export type { EligibilityRulesArgs, EligibilityRulesInput, InvestorCategoryArgs } from './eligibility-effects';
export type { EligibilityRules } from './eligibility-rule-set.entity';
export type { EligibilityService } from './eligibility.service';
/** The GraphQL input of `requestEligibilityRules` (approval answers it), beside the plain shape of the same name above. */
export { EligibilityRulesInput as EligibilityRulesInputType } from './eligibility.types';

/** The services the eligibility module owns in the context (wired in src/services.ts; src/access/module-services.ts). */
declare module '../../access/module-services' {
  interface ServicesByModule {
    eligibility: {
      eligibility: EligibilityService;
    };
  }
}

/** The eligibility module's manifest, collected by src/modules/manifests.ts. */
export const eligibilityModule: ModuleManifest<'eligibility'> = {
  name: 'eligibility',
  services: { eligibility: true },
  resolvers: [EligibilityResolver],
  entities: [EligibilityRuleSet],
  mutationRoles: {
    setInvestorCategory: 'operator',
    setInvestorKyc: 'operator',
  },
  queryRoles: {},
  mutationDuties: {
    setInvestorCategory: nothing,
    setInvestorKyc: nothing,
  },
  visibility: {
    /** Who may hold a share class: operations' rules (the check answers a distributor only its refusal). */
    EligibilityRuleSet: 'ops',
  },
};
