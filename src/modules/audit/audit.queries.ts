import type { EntityManager } from '@mikro-orm/postgresql';
import { rawRows } from '../../persistence/raw-query';

/**
 * The audit module's SQL (docs/architecture.md, "SQL"): the ops audit row appended by one insert
 * and sealed by one update, each a statement of its own, outside the mutation's transaction.
 * Paid by: `npm run bench:cpu` (docs/benchmarks.md, "Measured costs behind code choices",
 * `audit-log.ts`): a unit of work's flush wrapped the one row in BEGIN/COMMIT.
 */

/** An audit row as appended: `outcome` is `pending` until `sealAuditRow`, or `error` for a refused call (sealed at once). */
export interface AuditRowInsert {
  at: Date;
  principal: string;
  actorNote: string | null;
  operation: string;
  /** The redacted arguments, as JSON. */
  argumentsJson: string;
  outcome: 'pending' | 'error';
  errorCode: string | null;
  answeredAt: Date | null;
  requestId: string | null;
}

export async function insertAuditRow(em: EntityManager, row: AuditRowInsert): Promise<string> {
  const [inserted] = await rawRows<{ id: string }>(
    em,
    `insert into audit_log (at, principal, actor_note, operation, arguments, outcome, error_code, answered_at, request_id)
     values (?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?) returning id`,
    [row.at, row.principal, row.actorNote, row.operation, row.argumentsJson, row.outcome, row.errorCode, row.answeredAt, row.requestId],
  );
  return inserted.id;
}

export async function sealAuditRow(em: EntityManager, id: string, outcome: 'ok' | 'error', errorCode: string | null, answeredAt: Date): Promise<void> {
  await rawRows(em, `update audit_log set outcome = ?, error_code = ?, answered_at = ? where id = ?`, [outcome, errorCode, answeredAt, id]);
}
