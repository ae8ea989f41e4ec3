import type { EntityManager } from '@mikro-orm/postgresql';
import { GraphQLError } from 'graphql';
import type { Clock } from '../../common/clock';
import { toDomainError } from '../../common/errors';
import { currentScope } from '../../common/request-scope';
import type { ServiceContext } from '../../access/service-context';
import { rawRows } from '../../persistence/raw-query';
import { AuditLogEntry } from './audit-log.entity';

/** Argument names whose values never reach the log (tokens, secrets, keys, signatures, passwords). */
const SECRET = /token|secret|key|password|signature|private|credential/i;

/** Arguments as the log keeps them: every value under a secret-looking name replaced by `[redacted]`, at any depth. */
export function redacted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redacted);
  if (value instanceof Date) return value.getTime();
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET.test(k) ? '[redacted]' : redacted(v)]));
  }
  return value;
}

/** The code an error answers with (the one error table's, or a GraphQL error's own). */
export function errorCodeOf(err: unknown): string {
  if (err instanceof GraphQLError) return typeof err.extensions.code === 'string' ? err.extensions.code : 'INTERNAL_SERVER_ERROR';
  return toDomainError(err).error.code;
}

/**
 * The append-only log of ops mutations. `record` appends one row in one statement of its own (the
 * ops guard calls it once the mutation has committed or failed: docs/approvals.md says why not in
 * the mutation's transaction); the table refuses UPDATE and DELETE (migration
 * Migration20261126200200), so no code path, this one included, can rewrite history.
 */
export class AuditLog {
  constructor(private readonly clock: Clock) {}

  async record(
    em: EntityManager,
    entry: { principal: string; operation: string; args: Record<string, unknown>; outcome: 'ok' | 'error'; errorCode?: string },
  ): Promise<void> {
    const scope = currentScope();
    // One insert, not a unit of work: the ORM's flush wraps its one row in BEGIN/COMMIT and costs
    // an ops mutation ~0.5 ms of CPU (docs/benchmarks.md, "Measured costs behind code choices").
    await rawRows(
      em,
      `insert into audit_log (at, principal, actor_note, operation, arguments, outcome, error_code, request_id)
       values (?, ?, ?, ?, ?::jsonb, ?, ?, ?)`,
      [
        this.clock.now(),
        entry.principal,
        scope?.actor ?? null,
        entry.operation,
        JSON.stringify(redacted(entry.args)),
        entry.outcome,
        entry.errorCode ?? null,
        scope?.requestId ?? null,
      ],
    );
  }

  /** Newest first; `admin` and `approver` only. */
  async list(ctx: ServiceContext, opts: { operation?: string | null; limit?: number | null }): Promise<AuditLogEntry[]> {
    ctx.access.requireRole('approver');
    const limit = Math.min(Math.max(opts.limit ?? 100, 1), 500);
    return ctx.em.find(AuditLogEntry, opts.operation ? { operation: opts.operation } : {}, { orderBy: { id: 'desc' }, limit });
  }
}
