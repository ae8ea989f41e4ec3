import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { ModuleContext } from '../../access/module-services';
import { AuditLogEntry } from './audit-log.entity';

@Resolver()
export class AuditLogResolver {
  @Query(() => [AuditLogEntry], { description: 'Ops (`admin`, `approver`): the append-only log of ops mutations, newest first (at most 500).' })
  auditLog(
    @Arg('operation', () => String, { nullable: true }) operation: string | null,
    @Arg('limit', () => Int, { nullable: true }) limit: number | null,
    @Ctx() ctx: ModuleContext<'audit'>,
  ): Promise<AuditLogEntry[]> {
    return ctx.services.auditLog.list(ctx, { operation, limit });
  }
}
