import { Migration } from '@mikro-orm/migrations';

/**
 * The audit log is written ahead: an ops mutation's row is appended, `pending`, before the mutation
 * runs, and sealed once with its outcome (`ok` / `error`) and the time it answered. The trigger
 * lets exactly that one change through, a pending row's outcome, error code and answer time, and
 * refuses every other UPDATE and every DELETE as before, so a crash can leave a row unsealed but
 * never a committed mutation without its row, and nothing can rewrite a sealed one. The pending rows
 * are indexed for the metric that finds the oldest (gateway_audit_log_unanswered_seconds).
 */
export class Migration20261127600000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "audit_log" drop constraint "audit_log_outcome_check";`);
    this.addSql(`alter table "audit_log" add constraint "audit_log_outcome_check" check ("outcome" in ('pending', 'ok', 'error'));`);
    this.addSql(`alter table "audit_log" add column "answered_at" timestamptz(3) null;`);
    this.addSql(`alter table "audit_log" add constraint "audit_log_answered" check (("outcome" = 'pending') = ("answered_at" is null));`);
    this.addSql(`create index "audit_log_pending_index" on "audit_log" ("at") where "outcome" = 'pending';`);
    this.addSql(`create or replace function audit_log_append_only() returns trigger language plpgsql as $$
      begin
        if tg_op = 'UPDATE' and old.outcome = 'pending' and new.outcome <> 'pending'
           and (new.id, new.at, new.principal, new.actor_note, new.operation, new.arguments, new.request_id)
               is not distinct from (old.id, old.at, old.principal, old.actor_note, old.operation, old.arguments, old.request_id) then
          return new;
        end if;
        raise exception 'audit_log is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
      end $$;`);
  }

  override async down(): Promise<void> {
    this.addSql(`create or replace function audit_log_append_only() returns trigger language plpgsql as $$
      begin
        raise exception 'audit_log is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
      end $$;`);
    this.addSql(`drop index "audit_log_pending_index";`);
    this.addSql(`alter table "audit_log" drop constraint "audit_log_answered";`);
    this.addSql(`alter table "audit_log" drop column "answered_at";`);
    this.addSql(`alter table "audit_log" drop constraint "audit_log_outcome_check";`);
    this.addSql(`alter table "audit_log" add constraint "audit_log_outcome_check" check ("outcome" in ('ok', 'error'));`);
  }
}
