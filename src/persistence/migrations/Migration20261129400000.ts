import { Migration } from '@mikro-orm/migrations';

/**
 * A request binds what it will do (src/modules/approval/approval-effect.ts): `approval_request.effect`
 * holds the effect computed at request time (token, wallets, quantities), which approval checks the
 * world against and runs from; a trigger refuses changing it once set, so what the approver was
 * shown is what runs. `investor_wallet.recovery_tokens` carries a recovery's bound tokens and units
 * to its chain steps.
 *
 * Requests already open keep `effect` null and are NOT bound here: binding them now would bind
 * today's world, which is exactly the re-resolution this closes (the receiver's wallet may already
 * have been swapped). Approval refuses such a request (CONFLICT, "reject it and request it again"),
 * and the approval worker fails an approved, delayed recovery that has none with the same reason.
 */
export class Migration20261129400000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "approval_request" add column "effect" jsonb null;`);
    this.addSql(`alter table "investor_wallet" add column "recovery_tokens" jsonb null;`);
    this.addSql(`create or replace function approval_request_effect_bound() returns trigger language plpgsql as $$
      begin
        if old.effect is not null and new.effect is distinct from old.effect then
          raise exception 'approval_request.effect is bound at request: UPDATE refused' using errcode = 'insufficient_privilege';
        end if;
        return new;
      end $$;`);
    this.addSql(`create trigger "approval_request_effect_bound" before update on "approval_request"
      for each row execute function approval_request_effect_bound();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger "approval_request_effect_bound" on "approval_request";`);
    this.addSql(`drop function approval_request_effect_bound();`);
    this.addSql(`alter table "investor_wallet" drop column "recovery_tokens";`);
    this.addSql(`alter table "approval_request" drop column "effect";`);
  }
}
