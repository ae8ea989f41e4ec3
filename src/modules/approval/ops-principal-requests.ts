import type { ServiceContext } from '../../access/service-context';
import { principalLabel } from '../../access/principal';
import { forbidden } from '../../common/errors';
import { required } from '../../common/validate';
import { newFirstPart, opsRoles, type OpsTokenService } from '../auth';
import { ApprovalKind, type ApprovalRequest } from './approval-request.entity';
import type { ApprovalService } from './approval.service';

/**
 * Four eyes on who may act (issue 43, "a principal is a person"): one admin asks, a different
 * admin approves, for
 * - a new principal with `operator`, `approver` or `admin` (`ops_principal`): one admin with a
 *   principal of its own making would ask with one and approve with the other;
 * - a change of any principal's roles (`ops_roles`);
 * - a new token for a principal that lost its own (`ops_token_reset`; its other tokens end).
 *
 * Who receives the secret: nobody alone. A new principal's (or a reset's) token is made of two
 * parts (src/modules/auth/ops-token-secret.ts): the requesting admin's answer carries the first,
 * the approving admin's answer the second, and each hands its part to the person, who joins them.
 * The request stores only a commitment to the first part. So neither admin ends up holding a
 * credential of the principal it helped create or reset (the second person is the control, not a
 * witness), and the two would have to collude to. The approver is never the principal whose roles
 * or token the request changes.
 */
export class OpsPrincipalRequests {
  constructor(
    private readonly approval: ApprovalService,
    private readonly tokens: OpsTokenService,
  ) {
    approval.register(ApprovalKind.ops_principal, { decidedBy: 'admin', run: (ctx, request) => this.create(ctx, request) });
    approval.register(ApprovalKind.ops_roles, { decidedBy: 'admin', run: (ctx, request) => this.changeRoles(ctx, request) });
    approval.register(ApprovalKind.ops_token_reset, { decidedBy: 'admin', run: (ctx, request) => this.reset(ctx, request) });
  }

  /** `requestOpsPrincipal`: a new principal `name` with `roles`; the answer carries the first part of its token. */
  async requestPrincipal(ctx: ServiceContext, input: { name: unknown; roles: readonly string[]; reason: unknown }): Promise<ApprovalRequest> {
    ctx.access.requireRole('admin');
    const name = await this.tokens.assertNewName(ctx.em, input.name);
    const roles = opsRoles(input.roles);
    const { firstPart, commitment } = newFirstPart();
    const reason = required(input.reason, 'reason').trim();
    const request = await this.approval.submit(ctx, ApprovalKind.ops_principal, { name, roles, firstPartSha256: commitment }, reason);
    request.tokenPart = firstPart;
    return request;
  }

  /** `requestOpsRoles`: the principal `name` is to hold exactly `roles`. */
  async requestRoles(ctx: ServiceContext, input: { name: unknown; roles: readonly string[]; reason: unknown }): Promise<ApprovalRequest> {
    ctx.access.requireRole('admin');
    const principal = await this.tokens.principalNamed(ctx.em, input.name);
    const roles = opsRoles(input.roles);
    const reason = required(input.reason, 'reason').trim();
    return this.approval.submit(ctx, ApprovalKind.ops_roles, { principalId: principal.id, name: principal.name, from: principal.roles, roles }, reason);
  }

  /** `requestOpsTokenReset`: a new token for the principal `name`; the answer carries the first part. */
  async requestReset(ctx: ServiceContext, input: { name: unknown; reason: unknown }): Promise<ApprovalRequest> {
    ctx.access.requireRole('admin');
    const principal = await this.tokens.principalNamed(ctx.em, input.name);
    const { firstPart, commitment } = newFirstPart();
    const reason = required(input.reason, 'reason').trim();
    const request = await this.approval.submit(
      ctx,
      ApprovalKind.ops_token_reset,
      { principalId: principal.id, name: principal.name, firstPartSha256: commitment },
      reason,
    );
    request.tokenPart = firstPart;
    return request;
  }

  private async create(ctx: ServiceContext, request: ApprovalRequest): Promise<void> {
    const args = request.arguments as { name: string; roles: string[]; firstPartSha256: string };
    const createdBy = `${request.requestedBy}, approved by ${principalLabel(ctx.access.principal)}`;
    request.tokenPart = await this.tokens.createApproved(ctx.em, args.name, args.roles, args.firstPartSha256, createdBy);
    const principal = await this.tokens.principalNamed(ctx.em, args.name);
    request.result = { principalId: principal.id, name: principal.name, roles: principal.roles };
  }

  private async changeRoles(ctx: ServiceContext, request: ApprovalRequest): Promise<void> {
    const args = request.arguments as { principalId: string; roles: string[] };
    this.notTheTarget(ctx, args.principalId);
    const principal = await this.tokens.setRolesApproved(ctx.em, args.principalId, args.roles);
    request.result = { principalId: principal.id, name: principal.name, roles: principal.roles };
  }

  private async reset(ctx: ServiceContext, request: ApprovalRequest): Promise<void> {
    const args = request.arguments as { principalId: string; name: string; firstPartSha256: string };
    this.notTheTarget(ctx, args.principalId);
    request.tokenPart = await this.tokens.resetApproved(ctx.em, args.principalId, args.firstPartSha256);
    request.result = { principalId: args.principalId, name: args.name };
  }

  /** Whoever a request changes does not approve it (its own roles, its own token). */
  private notTheTarget(ctx: ServiceContext, principalId: string): void {
    if (ctx.access.opsPrincipalId === String(principalId)) throw forbidden('a principal may not approve a change of its own roles or token');
  }
}
