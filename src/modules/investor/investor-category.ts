import { registerEnumType } from 'type-graphql';
import type { InvestorCategoryValue } from '../../common/investor-category-rank';

/** What an investor is to the rules of a share class's offering (MiFID II client categories; US Reg D and the 1940 Act's). */
export enum InvestorCategory {
  retail = 'retail',
  professional = 'professional',
  eligible_counterparty = 'eligible_counterparty',
  /** Reg D Rule 501(a). */
  us_accredited = 'us_accredited',
  /** Investment Company Act §2(a)(51). */
  qualified_purchaser = 'qualified_purchaser',
}
registerEnumType(InvestorCategory, { name: 'InvestorCategory' });

// Every value the shared rank knows is a value of the enum (the type check fails otherwise).
void (InvestorCategory satisfies Record<InvestorCategoryValue, InvestorCategory>);

export const INVESTOR_CATEGORIES: readonly InvestorCategory[] = Object.values(InvestorCategory);

/** Whether going from one category to another is an upgrade: the one rule, shared with the console. */
export { isCategoryUpgrade } from '../../common/investor-category-rank';
