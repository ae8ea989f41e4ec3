import type { ServiceContext } from '../../access/service-context';
import { optional, required } from '../../common/validate';

/**
 * Why ops moved an order its distributor placed (a cancellation on the desk): the distributor
 * sees it in statusHistory, so ops must give one — blank is refused like missing. A distributor
 * cancelling its own order may say why, or not.
 */
export function opsReason(ctx: ServiceContext, reason: unknown, field = 'reason'): string | undefined {
  return ctx.access.isOps ? required(reason, field).trim() : optional(reason, field)?.trim();
}
