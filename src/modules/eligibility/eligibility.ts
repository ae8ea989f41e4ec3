import type { EntityManager } from '@mikro-orm/postgresql';
import type Decimal from 'decimal.js';
import { conflict, type DomainError } from '../../common/errors';
import { Dec, decimalString } from '../../common/money';
import { eligibilityFactsRows, positionRow, settledHoldings, type RuleRow } from './eligibility.queries';
import type { EligibilityRules } from './eligibility-rule-set.entity';
import { kycExpired } from '../investor';

/*
 * The one eligibility check (issue 46). Every door that takes or prices a subscription asks it
 * through `refuseIneligible` — one-step and two-step placement on REST R, REST O and GraphQL alike
 * (they all reach the order services), acceptance, and each row of a dealing date's batch — so a
 * rule is never written twice. It answers in words which rule refused; the doors turn that into
 * the documented 409 `investor <id> is not eligible for <shareClassId>: <reason>`. Redemptions are
 * never asked: a holder who became ineligible keeps the tokens and may only redeem.
 */

/** The investor's side of the rules. */
export interface EligibilityInvestor {
  countryCode: string | null;
  category: string | null;
  kycExpiresAt: Date | null;
}

/** The class's side of the limits, before the tokens asked for: the investor's tokens and the class's, settled plus accepted and not yet settled. */
export interface EligibilityPosition {
  holding: Decimal;
  /** Holders other than this investor. */
  otherHolders: number;
  supply: Decimal;
}

/** Why the investor may not hold the class at all (its country, category, KYC), or null. KYC applies whether or not the class has a rule set. */
export function investorBreach(rules: EligibilityRules | null, investor: EligibilityInvestor, now: Date): string | null {
  const expired = kycExpired(investor.kycExpiresAt, now);
  if (expired) return `KYC expired on ${expired.toISOString().slice(0, 10)}`;
  if (!rules) return null;
  const country = investor.countryCode?.toUpperCase() ?? null;
  if (rules.allowedCountries && (!country || !rules.allowedCountries.includes(country)))
    return `country ${country ?? 'unknown'} is not allowed by rule set ${rules.code}`;
  if (country && rules.blockedCountries.includes(country)) return `country ${country} is blocked by rule set ${rules.code}`;
  if (rules.allowedCategories && (!investor.category || !rules.allowedCategories.includes(investor.category)))
    return `investor category ${investor.category ?? 'none'} is not allowed by rule set ${rules.code}`;
  return null;
}

/** Whether a rule set limits quantities (then the position is read and the tokens estimated). */
export const hasLimits = (rules: EligibilityRules | null): rules is EligibilityRules =>
  !!rules && (rules.maxHolders !== null || rules.maxHoldingPerInvestor !== null || rules.supplyCap !== null);

/** Why `tokens` more would break a limit of the class, or null. */
export function limitBreach(rules: EligibilityRules | null, position: EligibilityPosition, tokens: Decimal): string | null {
  if (!rules) return null;
  if (rules.maxHolders !== null && position.holding.isZero() && position.otherHolders >= rules.maxHolders)
    return `the share class has its maximum of ${rules.maxHolders} holders (rule set ${rules.code})`;
  const after = position.holding.plus(tokens);
  if (rules.maxHoldingPerInvestor !== null && after.gt(rules.maxHoldingPerInvestor))
    return `a holding of ${decimalString(after)} tokens would exceed the maximum of ${decimalString(rules.maxHoldingPerInvestor)} per investor (rule set ${rules.code})`;
  const supply = position.supply.plus(tokens);
  if (rules.supplyCap !== null && supply.gt(rules.supplyCap))
    return `a supply of ${decimalString(supply)} tokens would exceed the cap of ${decimalString(rules.supplyCap)} (rule set ${rules.code})`;
  return null;
}

/** The documented refusal at placement and acceptance (409). */
export const notEligible = (shownInvestorId: string, shareClassId: string, reason: string): DomainError =>
  conflict(`investor ${shownInvestorId} is not eligible for ${shareClassId}: ${reason}`);

function rulesOfRow(row: Partial<RuleRow>): EligibilityRules | null {
  if (!row.code) return null;
  return {
    code: row.code,
    allowedCountries: row.allowed_countries ?? null,
    blockedCountries: row.blocked_countries ?? [],
    allowedCategories: row.allowed_categories ?? null,
    maxHolders: row.max_holders ?? null,
    maxHoldingPerInvestor:
      row.max_holding_per_investor === null || row.max_holding_per_investor === undefined ? null : decimalString(row.max_holding_per_investor),
    supplyCap: row.supply_cap === null || row.supply_cap === undefined ? null : decimalString(row.supply_cap),
  };
}

type Facts = { rules: EligibilityRules | null; investor: EligibilityInvestor };

/** The rule set in force for a share class and each investor's side of it, by investor id (an investor that does not exist is absent). */
async function eligibilityFactsOf(em: EntityManager, investorIds: readonly string[], shareClassId: string): Promise<Map<string, Facts>> {
  const rows = await eligibilityFactsRows(em, shareClassId, [...new Set(investorIds)]);
  return new Map(
    rows.map((row) => [
      row.id,
      {
        rules: rulesOfRow(row),
        investor: { countryCode: row.country_code, category: row.category, kycExpiresAt: row.kyc_expires_at === null ? null : new Date(row.kyc_expires_at) },
      },
    ]),
  );
}

/** The investor's and the class's tokens now, leaving out `exceptOrderId`. */
export async function eligibilityPosition(em: EntityManager, investorId: string, shareClassId: string, exceptOrderId = ''): Promise<EligibilityPosition> {
  const row = await positionRow(em, investorId, shareClassId, exceptOrderId);
  return { holding: new Dec(row.holding), otherHolders: row.other_holders, supply: new Dec(row.supply) };
}

/**
 * THE check: throws the documented 409 when the investor may not subscribe `tokens` (or, when
 * they are not known yet, `estimate()` of them, asked only when the rule set limits quantities)
 * of the share class now.
 */
export async function refuseIneligible(
  em: EntityManager,
  ask: {
    investorId: string;
    shownInvestorId: string;
    shareClassId: string;
    tokens: Decimal | (() => Promise<Decimal | null>);
    exceptOrderId?: string;
    now: Date;
  },
): Promise<void> {
  const facts = (await eligibilityFactsOf(em, [ask.investorId], ask.shareClassId)).get(ask.investorId);
  if (!facts) return;
  const refuse = (reason: string) => {
    throw notEligible(ask.shownInvestorId, ask.shareClassId, reason);
  };
  const breach = investorBreach(facts.rules, facts.investor, ask.now);
  if (breach) refuse(breach);
  if (!hasLimits(facts.rules)) return;
  const tokens = typeof ask.tokens === 'function' ? await ask.tokens() : ask.tokens;
  // Without a price the tokens are not known yet: acceptance checks them.
  if (tokens === null) return;
  const limit = limitBreach(facts.rules, await eligibilityPosition(em, ask.investorId, ask.shareClassId, ask.exceptOrderId), tokens);
  if (limit) refuse(limit);
}

/**
 * The batch's side of the check (a dealing date's run): each subscription row whose investor the
 * rules or KYC refuse now, or whose tokens, added to the class's settled holdings and to the
 * rows before it, would break a limit, answers its refusal (`orderId → reason`). T-REX's batch
 * mint reverts whole on one row its compliance refuses, so a row is failed here, alone, first.
 */
export async function batchIneligibility(
  em: EntityManager,
  shareClassId: string,
  rows: readonly { orderId: string; investorId: string; shownInvestorId: string; tokens: string }[],
  now: Date,
): Promise<Map<string, string>> {
  const refusals = new Map<string, string>();
  if (!rows.length) return refusals;
  // Every row's investor in one statement: a date of 1,000 subscriptions is not 1,000 reads. The rule set is the class's, the same on every row.
  const facts = await eligibilityFactsOf(
    em,
    rows.map((r) => r.investorId),
    shareClassId,
  );
  const rules = facts.values().next().value?.rules ?? null;
  const held = new Map((await settledHoldings(em, shareClassId)).map((h) => [h.investor_id, new Dec(h.balance)]));
  let supply = [...held.values()].reduce((a, b) => a.plus(b), new Dec(0));
  for (const r of rows) {
    const f = facts.get(r.investorId);
    const holding = held.get(r.investorId) ?? new Dec(0);
    const tokens = new Dec(r.tokens);
    const reason =
      (f && investorBreach(f.rules, f.investor, now)) ??
      limitBreach(rules, { holding, otherHolders: [...held.keys()].filter((k) => k !== r.investorId).length, supply }, tokens);
    if (reason) {
      refusals.set(r.orderId, notEligible(r.shownInvestorId, shareClassId, reason).message);
      continue;
    }
    held.set(r.investorId, holding.plus(tokens));
    supply = supply.plus(tokens);
  }
  return refusals;
}

/** Why the investor may not hold the share class now (country, category, KYC), or null: what the chain follower records of a transfer it sees. */
export async function holderIneligibility(em: EntityManager, shareClassId: string, investorId: string, now: Date): Promise<string | null> {
  const facts = (await eligibilityFactsOf(em, [investorId], shareClassId)).get(investorId);
  return facts ? investorBreach(facts.rules, facts.investor, now) : null;
}
