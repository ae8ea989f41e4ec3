import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { ModuleContext } from '../../access/module-services';
import { HoldingAdjustmentInputType } from '../holding';
import { RecoverInvestorWalletInput } from '../investor';
import { ApprovalRequest, ApprovalStatus } from './approval-request.entity';
import { ForcedTransferInput } from './forced-transfer';
import { ApprovalEffectView, effectView } from './approval-effect.types';

/** Four eyes (src/modules/approval/approval.service.ts): requests, and a second principal's decision. */
@Resolver(() => ApprovalRequest)
export class ApprovalResolver {
  @FieldResolver(() => ApprovalEffectView, {
    nullable: true,
    description:
      'What it will do, bound at request time (token, wallets, quantities); approval refuses a world that no longer gives it. Null on a request made before requests bound their effect, which cannot be approved.',
  })
  effect(@Root() request: ApprovalRequest): ApprovalEffectView | null {
    return request.effect ? effectView(request.effect) : null;
  }

  @Mutation(() => ApprovalRequest, {
    description:
      "Ops (`operator`): asks to recover a lost wallet's tokens to the investor's new wallet (T-REX `recoveryAddress`). Runs only once another principal approves it (`approveRequest`), RECOVERY_DELAY_SECONDS after that approval; the investor's distributor is told by webhook (`wallet.recovery_*`).",
  })
  requestWalletRecovery(
    @Arg('input', () => RecoverInvestorWalletInput) input: RecoverInvestorWalletInput,
    @Ctx() ctx: ModuleContext<'approval'>,
  ): Promise<ApprovalRequest> {
    return ctx.services.approval.requestWalletRecovery(ctx, input);
  }

  @Mutation(() => ApprovalRequest, {
    description:
      'Ops (`operator`): asks to book a holding adjustment (a transfer in from a previous register, a correction). Runs when another principal approves it.',
  })
  requestHoldingAdjustment(
    @Arg('input', () => HoldingAdjustmentInputType) input: HoldingAdjustmentInputType,
    @Ctx() ctx: ModuleContext<'approval'>,
  ): Promise<ApprovalRequest> {
    return ctx.services.approval.requestHoldingAdjustment(ctx, input);
  }

  @Mutation(() => ApprovalRequest, {
    description:
      "Ops (`operator`): asks to move a holder's tokens to another holder's whitelisted wallet (court order, estate) with T-REX `forcedTransfer`. Runs when another principal approves it; the register moves at the transaction's confirmation depth, the tokens keeping their lots' settlement dates.",
  })
  requestForcedTransfer(@Arg('input', () => ForcedTransferInput) input: ForcedTransferInput, @Ctx() ctx: ModuleContext<'approval'>): Promise<ApprovalRequest> {
    return ctx.services.approval.requestForcedTransfer(ctx, input);
  }

  @Mutation(() => ApprovalRequest, {
    description:
      "Ops (`operator`): asks to unfreeze a wallet an operator froze (`freezeInvestorWallet`), with a reason (required). Runs when another principal approves it: T-REX `setAddressFrozen(wallet, false)`, and the freeze is lifted at the transaction's confirmation depth.",
  })
  requestWalletUnfreeze(
    @Arg('freezeId', () => ID) freezeId: string,
    @Arg('reason', () => String) reason: string,
    @Ctx() ctx: ModuleContext<'approval'>,
  ): Promise<ApprovalRequest> {
    return ctx.services.approval.requestWalletUnfreeze(ctx, { freezeId, reason });
  }

  @Mutation(() => ApprovalRequest, {
    description: "Ops (`approver`): approves another principal's request (403 for one's own, 409 once decided); it runs now, or when its delay has passed.",
  })
  approveRequest(
    @Arg('id', () => ID) id: string,
    @Arg('reason', () => String, { nullable: true }) reason: string | null,
    @Ctx() ctx: ModuleContext<'approval'>,
  ): Promise<ApprovalRequest> {
    return ctx.services.approval.approve(ctx, id, reason);
  }

  @Mutation(() => ApprovalRequest, { description: "Ops (`approver`): rejects another principal's request, with a reason; nothing runs." })
  rejectRequest(@Arg('id', () => ID) id: string, @Arg('reason', () => String) reason: string, @Ctx() ctx: ModuleContext<'approval'>): Promise<ApprovalRequest> {
    return ctx.services.approval.reject(ctx, id, reason);
  }

  @Query(() => [ApprovalRequest], { description: 'Ops: approval requests, newest first (at most 200); `status: requested` is the inbox.' })
  approvalRequests(
    @Arg('status', () => ApprovalStatus, { nullable: true }) status: ApprovalStatus | null,
    @Ctx() ctx: ModuleContext<'approval'>,
  ): Promise<ApprovalRequest[]> {
    return ctx.services.approval.list(ctx, status);
  }

  @Query(() => ApprovalRequest)
  approvalRequest(@Arg('id', () => ID) id: string, @Ctx() ctx: ModuleContext<'approval'>): Promise<ApprovalRequest> {
    return ctx.services.approval.get(ctx, id);
  }
}
