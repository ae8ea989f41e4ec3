import type { ServiceContext } from '../../access/service-context';
import { badRequest, forbidden, notFound } from '../../common/errors';
import { optionalEpochMs, required } from '../../common/validate';
import { LockMode } from '@mikro-orm/core';
import { Investor, type InvestorService, type KycClaims } from '../investor';
import { EligibilityRuleSet, type EligibilityRules } from './eligibility-rule-set.entity';
import { ineligibleHolders, investorCategory, readRules, type EligibilityRulesInput } from './eligibility-effects';
import { isCategoryUpgrade } from '../investor';
import { carryRuleChange } from './token-compliance';
import type { ChainService } from '../chain';

/**
 * Ops' side of eligibility: the rule sets as they are, an investor's KYC dates and a category
 * downgrade (one operator), and what an approved request writes (the rule set, an upgrade:
 * src/modules/approval/eligibility-requests.ts). The check every door asks is eligibility.ts.
 */
export class EligibilityService {
  constructor(private readonly deps: { investors: InvestorService; chain?: ChainService | null; kycClaims?: KycClaims | null }) {}

  async ruleSets(ctx: ServiceContext): Promise<EligibilityRuleSet[]> {
    ctx.access.requireOps();
    return ctx.em.find(EligibilityRuleSet, {}, { orderBy: { code: 'asc' } });
  }

  async ruleSet(ctx: ServiceContext, code: unknown): Promise<EligibilityRuleSet> {
    ctx.access.requireOps();
    const found = await ctx.em.findOne(EligibilityRuleSet, { code: required(code, 'code').trim() });
    if (!found) throw notFound('eligibility rule set not found');
    return found;
  }

  /** The holders the rule set in force leaves ineligible now (`IN… (SC…): reason`): they may only redeem. */
  async ineligibleHolders(ctx: ServiceContext, code: unknown): Promise<string[]> {
    return ineligibleHolders(ctx.em, await this.ruleSet(ctx, code));
  }

  /** The holders a rule set as it is to be would leave ineligible now: what a request of it would bind (`requestEligibilityRules`), said before it is made. */
  async previewIneligibleHolders(ctx: ServiceContext, input: EligibilityRulesInput): Promise<string[]> {
    ctx.access.requireOps();
    return ineligibleHolders(ctx.em, readRules(input));
  }

  /**
   * KYC as ops verified it: when, and until when; an expiry before the verification is refused.
   * In the same transaction, the KYC claim on each of the investor's wallet identities follows
   * (src/modules/investor/kyc-claim.ts): an expiry at or before now withdraws it (revoked on
   * chain), a later one renews it (a fresh claim).
   */
  async setKyc(ctx: ServiceContext, input: { investorId?: unknown; verifiedAt?: unknown; expiresAt?: unknown }): Promise<Investor> {
    ctx.access.requireOps();
    const found = await this.deps.investors.get(ctx, input.investorId);
    const verifiedAt = optionalEpochMs(input.verifiedAt, 'verifiedAt') ?? null;
    const expiresAt = optionalEpochMs(input.expiresAt, 'expiresAt') ?? null;
    if (verifiedAt && expiresAt && expiresAt <= verifiedAt) throw badRequest('expiresAt must be after verifiedAt');
    const investor = await ctx.em.transactional(async (em) => {
      const locked = await em.findOneOrFail(Investor, { id: found.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      locked.kycVerifiedAt = verifiedAt;
      locked.kycExpiresAt = expiresAt;
      await this.deps.kycClaims?.follow(em, locked);
      await em.flush();
      return locked;
    });
    this.deps.kycClaims?.wake();
    return investor;
  }

  /** A category that gives no access the investor did not have (a downgrade); an upgrade is four-eyes (403 here). */
  async setCategory(ctx: ServiceContext, input: { investorId?: unknown; category?: unknown }): Promise<Investor> {
    ctx.access.requireOps();
    const investor = await this.deps.investors.get(ctx, input.investorId);
    const to = investorCategory(input.category);
    if (isCategoryUpgrade(investor.category, to))
      throw forbidden(`${to} is an upgrade of investor ${investor.id}'s category ${investor.category ?? 'none'}: it is four-eyes (requestInvestorCategory)`);
    investor.category = to;
    await ctx.em.flush();
    return investor;
  }

  /**
   * What an approved rule-set request writes: the rule set, created or replaced, and the change
   * carried to the compliance modules of the tokens of the share classes naming it (token-compliance.ts).
   */
  async writeRuleSet(ctx: ServiceContext, rules: EligibilityRules): Promise<EligibilityRuleSet> {
    const values = pick(rules);
    const existing = await ctx.em.findOne(EligibilityRuleSet, { code: rules.code });
    const before: EligibilityRules | null = existing ? { code: existing.code, ...pick(existing) } : null;
    const row = existing ? Object.assign(existing, values) : ctx.em.create(EligibilityRuleSet, { code: rules.code, ...values });
    await ctx.em.flush();
    await carryRuleChange(ctx.em, this.deps.chain ?? null, before, { code: rules.code, ...values });
    return row;
  }
}

/** The rules of a rule set or a request, without its code. */
const pick = (r: Omit<EligibilityRules, 'code'>): Omit<EligibilityRules, 'code'> => ({
  allowedCountries: r.allowedCountries,
  blockedCountries: r.blockedCountries,
  allowedCategories: r.allowedCategories,
  maxHolders: r.maxHolders,
  maxHoldingPerInvestor: r.maxHoldingPerInvestor,
  supplyCap: r.supplyCap,
});
