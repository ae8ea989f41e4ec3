import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { ModuleContext } from '../../access/module-services';
import { Investor } from '../investor';
import { EligibilityRuleSet } from './eligibility-rule-set.entity';
import { EligibilityRulesInput, InvestorKycInput } from './eligibility.types';
import { InvestorCategory } from '../investor';

/** Who may hold a share class (eligibility.service.ts; the check itself: eligibility.ts). */
@Resolver()
export class EligibilityResolver {
  @Query(() => [EligibilityRuleSet], { description: 'Ops: every eligibility rule set, by code' })
  eligibilityRuleSets(@Ctx() ctx: ModuleContext<'eligibility'>): Promise<EligibilityRuleSet[]> {
    return ctx.services.eligibility.ruleSets(ctx);
  }

  @Query(() => EligibilityRuleSet, { description: 'Ops: the rule set a share class names by its `eligibleInvestors` code' })
  eligibilityRuleSet(@Arg('code', () => String) code: string, @Ctx() ctx: ModuleContext<'eligibility'>): Promise<EligibilityRuleSet> {
    return ctx.services.eligibility.ruleSet(ctx, code);
  }

  @Query(() => [String], {
    description: 'Ops: holders the rule set in force leaves ineligible (`IN… (SC…): reason`); they keep their tokens and may only redeem',
  })
  ineligibleHolders(@Arg('code', () => String) code: string, @Ctx() ctx: ModuleContext<'eligibility'>): Promise<string[]> {
    return ctx.services.eligibility.ineligibleHolders(ctx, code);
  }

  @Query(() => [String], {
    description:
      'Ops: holders a rule set as it is to be would leave ineligible now (`IN… (SC…): reason`), the list `requestEligibilityRules` would bind; its `reason` is not read',
  })
  ineligibleHoldersPreview(
    @Arg('input', () => EligibilityRulesInput) input: EligibilityRulesInput,
    @Ctx() ctx: ModuleContext<'eligibility'>,
  ): Promise<string[]> {
    return ctx.services.eligibility.previewIneligibleHolders(ctx, input);
  }

  @Mutation(() => Investor, {
    description: "Ops (`operator`): sets an investor's category when it is no upgrade (403 for an upgrade: requestInvestorCategory).",
  })
  setInvestorCategory(
    @Arg('investorId', () => String) investorId: string,
    @Arg('category', () => InvestorCategory) category: InvestorCategory,
    @Ctx() ctx: ModuleContext<'eligibility'>,
  ): Promise<Investor> {
    return ctx.services.eligibility.setCategory(ctx, { investorId, category });
  }

  @Mutation(() => Investor, { description: "Ops (`operator`): records an investor's KYC verification and its expiry." })
  setInvestorKyc(@Arg('input', () => InvestorKycInput) input: InvestorKycInput, @Ctx() ctx: ModuleContext<'eligibility'>): Promise<Investor> {
    return ctx.services.eligibility.setKyc(ctx, {
      investorId: input.investorId,
      verifiedAt: input.verifiedAt?.getTime(),
      expiresAt: input.expiresAt?.getTime(),
    });
  }
}
