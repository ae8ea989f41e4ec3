import { registerEnumType } from 'type-graphql';

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

export const INVESTOR_CATEGORIES: readonly InvestorCategory[] = Object.values(InvestorCategory);

/**
 * How much protection a category gives up: moving an investor up this scale opens offerings
 * meant for fewer, so it is four-eyes (`requestInvestorCategory`); moving down is one operator's.
 * An investor without a category stands as retail.
 */
const RANK: Record<InvestorCategory, number> = {
  retail: 0,
  professional: 1,
  us_accredited: 1,
  eligible_counterparty: 2,
  qualified_purchaser: 2,
};

/** Whether going from `from` to `to` gives the investor access it did not have. */
export function isCategoryUpgrade(from: InvestorCategory | null | undefined, to: InvestorCategory): boolean {
  return (
    RANK[to] > RANK[from ?? InvestorCategory.retail] ||
    (RANK[to] === RANK[from ?? InvestorCategory.retail] && to !== (from ?? InvestorCategory.retail) && RANK[to] > 0)
  );
}
