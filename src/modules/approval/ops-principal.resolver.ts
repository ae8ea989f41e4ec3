import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import type { ModuleContext } from '../../access/module-services';
import { ApprovalRequest } from './approval-request.entity';

/** Four eyes on ops principals (ops-principal-requests.ts): one admin asks, another approves with `approveRequest`. */
@Resolver()
export class OpsPrincipalResolver {
  @Mutation(() => ApprovalRequest, {
    description:
      "Ops (`admin`): asks for a NEW principal `name` with `roles` (any of `viewer`, `operator`, `approver`, `admin`); another admin approves it (`approveRequest`). `tokenPart` is the first part of its token (shown once); the approver's answer carries the second. CONFLICT when the name (case-folded) is a principal's already.",
  })
  requestOpsPrincipal(
    @Arg('name', () => String) name: string,
    @Arg('roles', () => [String]) roles: string[],
    @Arg('reason', () => String) reason: string,
    @Ctx() ctx: ModuleContext<'approval'>,
  ): Promise<ApprovalRequest> {
    return ctx.services.opsPrincipalRequests.requestPrincipal(ctx, { name, roles, reason });
  }

  @Mutation(() => ApprovalRequest, {
    description:
      'Ops (`admin`): asks that the principal `name` hold exactly `roles`; another admin (not that principal) approves it. Takes effect at once on every instance.',
  })
  requestOpsRoles(
    @Arg('name', () => String) name: string,
    @Arg('roles', () => [String]) roles: string[],
    @Arg('reason', () => String) reason: string,
    @Ctx() ctx: ModuleContext<'approval'>,
  ): Promise<ApprovalRequest> {
    return ctx.services.opsPrincipalRequests.requestRoles(ctx, { name, roles, reason });
  }

  @Mutation(() => ApprovalRequest, {
    description:
      "Ops (`admin`): asks for a new token for the principal `name`, which lost its own; another admin (not that principal) approves it, and every other token of it is revoked then. `tokenPart` is the first part of the new token (shown once); the approver's answer carries the second.",
  })
  requestOpsTokenReset(
    @Arg('name', () => String) name: string,
    @Arg('reason', () => String) reason: string,
    @Ctx() ctx: ModuleContext<'approval'>,
  ): Promise<ApprovalRequest> {
    return ctx.services.opsPrincipalRequests.requestReset(ctx, { name, reason });
  }
}
