import type { ServiceContext } from '../../access/service-context';
import { required } from '../../common/validate';
import {
  type EligibilityRulesArgs,
  type EligibilityRulesInput,
  type EligibilityService,
  investorCategory,
  type InvestorCategoryArgs,
  readRules,
} from '../eligibility';
import { Investor, type InvestorService } from '../investor';
import { ApprovalKind, type ApprovalRequest } from './approval-request.entity';
import type { ApprovalService } from './approval.service';

/**
 * Four eyes on who may hold a share class (issue 46): an operator asks, an approver approves.
 * - a rule set created or changed (`eligibility_rules`): the request binds the rules and the
 *   holders they would leave ineligible, so the approver sees who is affected; those holders keep
 *   their tokens and may only redeem;
 * - an investor's category upgraded (`investor_category`): it opens offerings meant for fewer.
 */
export class EligibilityRequests {
  constructor(
    private readonly approval: ApprovalService,
    private readonly eligibility: EligibilityService,
    private readonly investors: InvestorService,
  ) {
    approval.register(ApprovalKind.eligibility_rules, { decidedBy: 'approver', run: (ctx, request) => this.writeRules(ctx, request) });
    approval.register(ApprovalKind.investor_category, { decidedBy: 'approver', run: (ctx, request) => this.upgrade(ctx, request) });
  }

  async requestRules(ctx: ServiceContext, input: EligibilityRulesInput & { reason?: unknown }): Promise<ApprovalRequest> {
    ctx.access.requireRole('operator');
    const rules = readRules(input);
    const reason = required(input.reason, 'reason').trim();
    const request = await this.approval.submit(ctx, ApprovalKind.eligibility_rules, { ...rules }, reason);
    await ctx.em.flush();
    return request;
  }

  async requestCategory(ctx: ServiceContext, input: { investorId?: unknown; category?: unknown; reason?: unknown }): Promise<ApprovalRequest> {
    ctx.access.requireRole('operator');
    const investor = await this.investors.get(ctx, input.investorId);
    const to = investorCategory(input.category);
    const reason = required(input.reason, 'reason').trim();
    const request = await this.approval.submit(ctx, ApprovalKind.investor_category, { investorId: investor.id, to }, reason, investor.id);
    await ctx.em.flush();
    return request;
  }

  private async writeRules(ctx: ServiceContext, request: ApprovalRequest): Promise<void> {
    const effect = request.effect as EligibilityRulesArgs;
    const { ineligibleHolders, ...rules } = effect;
    await this.eligibility.writeRuleSet(ctx, { ...rules });
    request.result = { code: rules.code, ineligibleHolders };
  }

  private async upgrade(ctx: ServiceContext, request: ApprovalRequest): Promise<void> {
    const effect = request.effect as InvestorCategoryArgs;
    const investor = await ctx.em.findOneOrFail(Investor, { id: effect.investorId });
    investor.category = investorCategory(effect.to);
    await ctx.em.flush();
    request.result = { investorId: investor.id, from: effect.from, category: investor.category };
  }
}
