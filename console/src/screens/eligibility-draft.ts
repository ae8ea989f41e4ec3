import { INVESTOR_CATEGORY_VALUES, type InvestorCategoryValue } from '../../../src/common/investor-category-rank';
import type { EligibilityRulesInput, RuleSetFieldsFragment } from '../generated/graphql';

/*
 * The eligibility editor's model (EligibilityRules.tsx): a rule set as the form holds it, from the
 * rule set in force and back to the input of `requestEligibilityRules`. Every rule is the
 * gateway's; the form only offers the closed sets (ISO 3166 countries, the investor categories).
 */

/** `any`: every country not blocked (allowedCountries null); `listed`: only the allowed ones. */
export type Scope = 'any' | 'listed';

export interface Draft {
  countryScope: Scope;
  allowedCountries: string[];
  blockedCountries: string[];
  categoryScope: Scope;
  allowedCategories: InvestorCategoryValue[];
  maxHolders: string;
  maxHoldingPerInvestor: string;
  supplyCap: string;
}

export const CATEGORIES = INVESTOR_CATEGORY_VALUES;

/** A category as people say it: `eligible counterparty`. */
export const categoryLabel = (c: string | null | undefined) => (c ? c.replace(/_/g, ' ') : 'none');

/** What a new rule set starts from: no rule at all. */
export const EMPTY: Draft = {
  countryScope: 'any',
  allowedCountries: [],
  blockedCountries: [],
  categoryScope: 'any',
  allowedCategories: [],
  maxHolders: '',
  maxHoldingPerInvestor: '',
  supplyCap: '',
};

export function draftOf(r: RuleSetFieldsFragment): Draft {
  return {
    countryScope: r.allowedCountries ? 'listed' : 'any',
    allowedCountries: r.allowedCountries ?? [],
    blockedCountries: r.blockedCountries,
    categoryScope: r.allowedCategories ? 'listed' : 'any',
    allowedCategories: (r.allowedCategories ?? []) as InvestorCategoryValue[],
    maxHolders: r.maxHolders == null ? '' : String(r.maxHolders),
    maxHoldingPerInvestor: r.maxHoldingPerInvestor ?? '',
    supplyCap: r.supplyCap ?? '',
  };
}

/** The request's input: an empty limit is no limit; a number field keeps what was typed for the gateway to refuse. */
export function inputOf(code: string, d: Draft, reason: string): EligibilityRulesInput {
  const text = (v: string) => (v.trim() === '' ? null : v.trim());
  const holders = text(d.maxHolders);
  return {
    code,
    allowedCountries: d.countryScope === 'listed' ? d.allowedCountries : null,
    blockedCountries: d.blockedCountries,
    allowedCategories: d.categoryScope === 'listed' ? d.allowedCategories : null,
    maxHolders: holders === null ? null : Number(holders),
    maxHoldingPerInvestor: text(d.maxHoldingPerInvestor),
    supplyCap: text(d.supplyCap),
    reason,
  };
}

const regions = new Intl.DisplayNames(['en'], { type: 'region' });
/** `LU · Luxembourg`: the code the gateway keeps, and the name people read. */
export const countryLabel = (code: string) => `${code} · ${regions.of(code) ?? code}`;

const list = (codes: string[]) => (codes.length ? codes.join(', ') : 'none');

/** A rule set's rules, each in words, as the list and the rules in force show them. */
export const RULES: [label: string, words: (r: RuleSetFieldsFragment) => string][] = [
  ['Countries allowed', (r) => (r.allowedCountries ? list(r.allowedCountries) : 'any not blocked')],
  ['Countries blocked', (r) => list(r.blockedCountries)],
  ['Categories allowed', (r) => (r.allowedCategories ? r.allowedCategories.map(categoryLabel).join(', ') || 'none' : 'any')],
  ['Holders at most', (r) => (r.maxHolders == null ? 'no limit' : String(r.maxHolders))],
  ['Holding per investor at most', (r) => (r.maxHoldingPerInvestor == null ? 'no limit' : `${r.maxHoldingPerInvestor} tokens`)],
  ['Supply cap', (r) => (r.supplyCap == null ? 'no cap' : `${r.supplyCap} tokens`)],
];
