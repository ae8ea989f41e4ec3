import type { EntityManager } from '@mikro-orm/postgresql';
import { GraphQLError } from 'graphql';
import type { Clock } from '../../common/clock';
import { toDomainError } from '../../common/errors';
import { currentScope } from '../../common/request-scope';
import type { ServiceContext } from '../../access/service-context';
import { AuditLogEntry } from './audit-log.entity';
import { insertAuditRow, sealAuditRow } from './audit.queries';

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

/** Who ran which ops mutation with what: a row of the log before it has an outcome. */
export interface AuditedCall {
  principal: string;
  operation: string;
  args: Record<string, unknown>;
}

/** How an ops mutation answered: `ok`, or `error` with the code it answered. */
export type AuditOutcome = { outcome: 'ok' } | { outcome: 'error'; errorCode: string };

/**
 * The append-only log of ops mutations, written ahead: `opened` appends a mutation's row, `pending`,
 * in a statement of its own before the mutation runs, and `answered` seals it once with its outcome.
 * The mutations plan their own transactions (docs/approvals.md says why the row cannot join them),
 * so this order is what makes a committed mutation without its row impossible: a crash leaves at
 * worst a row that stays `pending`. The table refuses every UPDATE but that one sealing, and every
 * DELETE (trigger audit_log_append_only, Migration20261127600000), so no code path, this one
 * included, can rewrite history. Each is one statement, not a unit of work: the ORM's flush wraps
 * its one row in BEGIN/COMMIT and costs ~0.5 ms of CPU (docs/benchmarks.md, "Measured costs behind
 * code choices").
 */
export class AuditLog {
  constructor(private readonly clock: Clock) {}

  /** Appends the call's row, `pending`; its id is what `answered` seals. Throws (and the mutation must not run) when it cannot. */
  async opened(em: EntityManager, call: AuditedCall): Promise<string> {
    return this.append(em, call, null);
  }

  /** Seals an opened row with the outcome, once; the database refuses a second seal. */
  async answered(em: EntityManager, id: string, answer: AuditOutcome): Promise<void> {
    await sealAuditRow(em, id, answer.outcome, answer.outcome === 'error' ? answer.errorCode : null, this.clock.now());
  }

  /** Appends a call that was refused before it ran (no role for it): its row, sealed, in one statement. */
  async refused(em: EntityManager, call: AuditedCall, errorCode: string): Promise<void> {
    await this.append(em, call, errorCode);
  }

  private append(em: EntityManager, call: AuditedCall, refusedWith: string | null): Promise<string> {
    const scope = currentScope();
    const now = this.clock.now();
    return insertAuditRow(em, {
      at: now,
      principal: call.principal,
      actorNote: scope?.actor ?? null,
      operation: call.operation,
      argumentsJson: JSON.stringify(redacted(call.args)),
      outcome: refusedWith === null ? 'pending' : 'error',
      errorCode: refusedWith,
      answeredAt: refusedWith === null ? null : now,
      requestId: scope?.requestId ?? null,
    });
  }

  /** Newest first; `admin` and `approver` only. */
  async list(ctx: ServiceContext, opts: { operation?: string | null; limit?: number | null }): Promise<AuditLogEntry[]> {
    ctx.access.requireRole('approver');
    const limit = Math.min(Math.max(opts.limit ?? 100, 1), 500);
    return ctx.em.find(AuditLogEntry, opts.operation ? { operation: opts.operation } : {}, { orderBy: { id: 'desc' }, limit });
  }
}
