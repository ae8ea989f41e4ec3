import { Migration } from '@mikro-orm/migrations';

/**
 * Four-eyes requests (approval_request) and the append-only audit log of ops mutations. The
 * database itself refuses UPDATE and DELETE on audit_log (trigger), whatever code runs.
 */
export class Migration20261126200200 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "approval_request" (
      "id" bigserial primary key,
      "kind" text not null check ("kind" in ('wallet_recovery', 'holding_adjustment')),
      "arguments" jsonb not null,
      "reason" text not null,
      "investor_id" text null,
      "requested_by" text not null,
      "requested_at" timestamptz(3) not null,
      "status" text not null check ("status" in ('requested', 'approved', 'rejected', 'executed', 'failed')),
      "decided_by" text null,
      "decision_reason" text null,
      "decided_at" timestamptz(3) null,
      "execute_after" timestamptz(3) null,
      "executed_at" timestamptz(3) null,
      "result" jsonb null,
      "failure" text null,
      constraint "approval_request_four_eyes" check ("decided_by" is null or "decided_by" <> "requested_by")
    );`);
    this.addSql(`create index "approval_request_status_execute_after_index" on "approval_request" ("status", "execute_after");`);

    this.addSql(`create table "audit_log" (
      "id" bigserial primary key,
      "at" timestamptz(3) not null,
      "principal" text not null,
      "actor_note" text null,
      "operation" text not null,
      "arguments" jsonb not null,
      "outcome" text not null check ("outcome" in ('ok', 'error')),
      "error_code" text null,
      "request_id" text null
    );`);
    this.addSql(`create index "audit_log_at_index" on "audit_log" ("at");`);
    this.addSql(`create function audit_log_append_only() returns trigger language plpgsql as $$
      begin
        raise exception 'audit_log is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
      end $$;`);
    this.addSql(`create trigger audit_log_append_only before update or delete on "audit_log" for each row execute function audit_log_append_only();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "audit_log";`);
    this.addSql(`drop function if exists audit_log_append_only();`);
    this.addSql(`drop table if exists "approval_request";`);
  }
}
