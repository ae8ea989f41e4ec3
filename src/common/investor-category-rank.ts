/*
 * Which change of an investor's category is an upgrade, in a file without GraphQL or ORM imports
 * so the ops console (console/src) asks the same rule the gateway enforces before it offers the
 * one-operator change or the four-eyes request.
 */

/** An investor category's value (the GraphQL enum InvestorCategory, src/modules/investor/investor-category.ts). */
export type InvestorCategoryValue = 'retail' | 'professional' | 'eligible_counterparty' | 'us_accredited' | 'qualified_purchaser';

/**
 * How much protection a category gives up: moving an investor up this scale opens offerings
 * meant for fewer, so it is four-eyes (`requestInvestorCategory`); moving down is one operator's.
 * An investor without a category stands as retail.
 */
const RANK: Record<InvestorCategoryValue, number> = {
  retail: 0,
  professional: 1,
  us_accredited: 1,
  eligible_counterparty: 2,
  qualified_purchaser: 2,
};

/** Every category, lowest protection given up first. */
export const INVESTOR_CATEGORY_VALUES = Object.keys(RANK) as InvestorCategoryValue[];

/** Whether going from `from` to `to` gives the investor access it did not have. */
export function isCategoryUpgrade(from: InvestorCategoryValue | null | undefined, to: InvestorCategoryValue): boolean {
  const was = from ?? 'retail';
  return RANK[to] > RANK[was] || (RANK[to] === RANK[was] && to !== was && RANK[to] > 0);
}
