import { Arg, Ctx, ID, Mutation, Resolver } from 'type-graphql';
import type { ModuleContext } from '../../access/module-services';
import { DecimalScalar } from '../../common/scalars';
import { EligibilityRulesInputType } from '../eligibility';
import { InvestorCategory } from '../investor';
import { ApprovalRequest } from './approval-request.entity';

/**
 * The four-eyes requests of modules that come before approval (eligibility, correction): asking
 * creates an ApprovalRequest, so approval answers them (eligibility-requests.ts, approval.service.ts).
 */
@Resolver()
export class ModuleRequestsResolver {
  @Mutation(() => ApprovalRequest, {
    description:
      'Ops (`operator`): asks to create or change a rule set; another principal approves it. The request binds the holders it leaves ineligible (its `effect`), and approval refuses a different list.',
  })
  requestEligibilityRules(
    @Arg('input', () => EligibilityRulesInputType) input: EligibilityRulesInputType,
    @Ctx() ctx: ModuleContext<'approval'>,
  ): Promise<ApprovalRequest> {
    return ctx.services.eligibilityRequests.requestRules(ctx, input);
  }

  @Mutation(() => ApprovalRequest, { description: "Ops (`operator`): asks to upgrade an investor's category; another principal approves it." })
  requestInvestorCategory(
    @Arg('investorId', () => String) investorId: string,
    @Arg('category', () => InvestorCategory) category: InvestorCategory,
    @Arg('reason', () => String) reason: string,
    @Ctx() ctx: ModuleContext<'approval'>,
  ): Promise<ApprovalRequest> {
    return ctx.services.eligibilityRequests.requestCategory(ctx, { investorId, category, reason });
  }

  @Mutation(() => ApprovalRequest, {
    description:
      "Ops (`operator`): asks to correct a confirmed NAV to `close`, with a reason (required). A different principal with `approver` approves it (`approveRequest`): then the NAV keeps its original close beside the corrected one, orders priced at it and not settled are re-priced, and, above the share class's tolerance, orders settled at it are compensated (`navCorrectionPreview` shows how, before).",
  })
  requestNavCorrection(
    @Arg('navId', () => ID) navId: string,
    @Arg('close', () => DecimalScalar) close: string,
    @Arg('reason', () => String) reason: string,
    @Ctx() ctx: ModuleContext<'approval'>,
  ): Promise<ApprovalRequest> {
    return ctx.services.approval.requestNavCorrection(ctx, { navId, close, reason });
  }
}
