import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Dec, DECIMAL_COLUMN, decimalString } from '../../common/money';
import { badRequest } from '../../common/errors';
import { countryCode, decimal, intInRange, required } from '../../common/validate';
import { Investor, investorNotFoundById } from '../investor';
import type { EligibilityRules } from './eligibility-rule-set.entity';
import { investorBreach, limitBreach } from './eligibility';
import { ruleHolders } from './eligibility.queries';
import { INVESTOR_CATEGORIES, InvestorCategory, isCategoryUpgrade } from '../investor';

/*
 * What the two four-eyes requests of eligibility do, computed from the world (the approval
 * module binds them at request time and compares at approval: approval-effect.ts).
 */

/** A rule set as it is to be, and the holders it would leave ineligible (they keep their tokens and may only redeem). */
export interface EligibilityRulesArgs extends EligibilityRules {
  /** `IN… (SC…): reason`, by investor then share class. */
  ineligibleHolders: string[];
}

/** An investor's category, from what it is to what it is to be. */
export interface InvestorCategoryArgs {
  investorId: string;
  from: string | null;
  to: string;
}

export interface EligibilityRulesInput {
  code?: unknown;
  allowedCountries?: readonly unknown[] | null;
  blockedCountries?: readonly unknown[] | null;
  allowedCategories?: readonly unknown[] | null;
  maxHolders?: unknown;
  maxHoldingPerInvestor?: unknown;
  supplyCap?: unknown;
}

const countries = (list: readonly unknown[], field: string) => [...new Set(list.map((c, i) => countryCode(c, `${field}[${i}]`)))].sort();

/** A category of the five (400 otherwise). */
export function investorCategory(value: unknown, field = 'category'): InvestorCategory {
  const v = required(value, field).trim();
  if (!(INVESTOR_CATEGORIES as readonly string[]).includes(v)) throw badRequest(`${field} must be one of ${INVESTOR_CATEGORIES.join(', ')}`);
  return v as InvestorCategory;
}

/** The rules as sent, checked (400 for the first wrong field). */
export function readRules(input: EligibilityRulesInput): EligibilityRules {
  const code = required(input.code, 'code').trim();
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(code)) throw badRequest('code must be 1 to 32 letters, digits, _ or -');
  const allowedCountries = input.allowedCountries ? countries(input.allowedCountries, 'allowedCountries') : null;
  const blockedCountries = countries(input.blockedCountries ?? [], 'blockedCountries');
  const allowedCategories = input.allowedCategories
    ? [...new Set(input.allowedCategories.map((c, i) => investorCategory(c, `allowedCategories[${i}]`)))].sort()
    : null;
  const limit = (v: unknown, field: string) => (v === null || v === undefined || v === '' ? null : decimalString(decimal(v, field, DECIMAL_COLUMN)));
  const maxHoldingPerInvestor = limit(input.maxHoldingPerInvestor, 'maxHoldingPerInvestor');
  const supplyCap = limit(input.supplyCap, 'supplyCap');
  for (const [field, v] of [
    ['maxHoldingPerInvestor', maxHoldingPerInvestor],
    ['supplyCap', supplyCap],
  ] as const)
    if (v !== null && new Dec(v).isNegative()) throw badRequest(`${field} must be >= 0`);
  return {
    code,
    allowedCountries,
    blockedCountries,
    allowedCategories,
    maxHolders: input.maxHolders === null || input.maxHolders === undefined ? null : intInRange(input.maxHolders, 'maxHolders', 0, 1_000_000_000),
    maxHoldingPerInvestor,
    supplyCap,
  };
}

/**
 * The holders `rules` would leave ineligible, with the rule: their country or category, or a
 * holding above the maximum per investor. KYC is not the rule set's (it expires on its own), and a
 * class over its holders or supply cap takes no new holder or token but leaves each one eligible.
 */
export async function ineligibleHolders(em: EntityManager, rules: EligibilityRules): Promise<string[]> {
  const rows = await ruleHolders(em, rules.code);
  const out: string[] = [];
  for (const r of rows) {
    const reason =
      investorBreach(rules, { countryCode: r.country_code, category: r.category, kycExpiresAt: null }, new Date(0)) ??
      limitBreach({ ...rules, maxHolders: null, supplyCap: null }, { holding: new Dec(r.balance), otherHolders: 0, supply: new Dec(0) }, new Dec(0));
    if (reason) out.push(`${r.investor_id} (${r.share_class_id}): ${reason}`);
  }
  return out;
}

/** What a rule-set request does now: the rules, and the holders they would leave ineligible. */
export async function eligibilityRulesEffect(em: EntityManager, args: EligibilityRules): Promise<EligibilityRulesArgs> {
  return { ...args, ineligibleHolders: await ineligibleHolders(em, args) };
}

/** What a category request does now: the investor's category from what it is to `to` (400 unless it is an upgrade: a downgrade is one operator's). */
export async function investorCategoryEffect(em: EntityManager, args: { investorId: string; to: string }, lock: boolean): Promise<InvestorCategoryArgs> {
  const investor = await em.findOne(Investor, { id: args.investorId }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!investor) throw investorNotFoundById(args.investorId);
  const to = investorCategory(args.to);
  if (!isCategoryUpgrade(investor.category, to))
    throw badRequest(`${to} is no upgrade of investor ${investor.id}'s category ${investor.category ?? 'none'}: set it with setInvestorCategory`);
  return { investorId: investor.id, from: investor.category ?? null, to };
}
