import type { Clock } from '../../common/clock';
import type { ServiceContext } from '../../access/service-context';
import { navAwaitsConfirmation, type NavConfirmations, type PendingNavArgs } from '../nav';
import { ApprovalKind } from './approval-request.entity';
import { navConfirmationEffect } from './approval-effect';
import { openRequest } from './approval.service';
import { pendingNavConfirmationId } from './approval.queries';

/**
 * Pending NAVs wait in the approvals inbox, as `nav_confirmation` requests by the principal that
 * struck them: approving one (a different principal with `approver`) runs
 * `NavService.confirmPending`; rejecting it runs nothing, so it is never live. One pending NAV per
 * share class and entry (the partial unique index `approval_request_pending_nav` holds it under a race).
 */
export class NavConfirmationInbox implements NavConfirmations {
  constructor(private readonly clock: Clock) {}

  async request(ctx: ServiceContext, nav: PendingNavArgs, reason: string): Promise<string> {
    const waiting = await pendingNavConfirmationId(ctx.em, nav.shareClassId, nav.entryId);
    if (waiting) throw navAwaitsConfirmation(nav.entryId, waiting);
    const request = await openRequest(ctx, this.clock, ApprovalKind.nav_confirmation, { ...nav }, reason, navConfirmationEffect(nav));
    return String(request.id);
  }
}
