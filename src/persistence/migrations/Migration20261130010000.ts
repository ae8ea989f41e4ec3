import { Migration } from '@mikro-orm/migrations';

/**
 * A correction repairs what the wrong NAV did (issue 44, point 3). A NAV keeps the close it was
 * struck with (`original_close`, set by its first correction) beside the corrected one, who
 * corrected it, when, why and by which `nav_correction` request. What the correction books for an
 * order settled at the wrong NAV is a `nav_compensation` row: tokens minted to or burned from the
 * investor's own wallet (through a batch intent), or cash recorded against the order; one per
 * request and order.
 */
export class Migration20261130010000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "nav" add column "original_close" numeric(38,18) null, add column "corrected_by" text null, add column "corrected_at" timestamptz(3) null,
         add column "correction_reason" text null, add column "correction_request_id" bigint null;`,
    );
    this.addSql(`alter table "approval_request" drop constraint "approval_request_kind_check";`);
    this.addSql(
      `alter table "approval_request" add constraint "approval_request_kind_check" check ("kind" in ('wallet_recovery', 'holding_adjustment', 'forced_transfer', 'ops_principal', 'ops_roles', 'ops_token_reset', 'nav_confirmation', 'nav_correction'));`,
    );
    this.addSql(
      `create table "nav_compensation" ("id" bigserial primary key, "request_id" bigint not null, "nav_id" bigint not null, "order_id" text not null,
         "investor_id" text not null, "distributor_id" text not null, "share_class_id" text not null,
         "action" text not null check ("action" in ('mint', 'burn', 'cash')), "tokens" numeric(38,18) not null, "units" text null,
         "cash_amount" numeric(38,18) null, "currency" text null, "chain_id" text null, "wallet" text null, "token_address" text null,
         "status" text not null check ("status" in ('sending', 'booked', 'failed', 'recorded')), "transaction_id" bigint null,
         "transfer_hash" text null, "failure" text null, "created_at" timestamptz(3) not null, "booked_at" timestamptz(3) null,
         constraint "nav_compensation_request_order" unique ("request_id", "order_id"));`,
    );
    this.addSql(`create index "nav_compensation_transaction_id_index" on "nav_compensation" ("transaction_id");`);
    this.addSql(`create index "nav_compensation_order_id_index" on "nav_compensation" ("order_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "nav_compensation";`);
    this.addSql(`delete from "approval_request" where "kind" = 'nav_correction';`);
    this.addSql(`alter table "approval_request" drop constraint "approval_request_kind_check";`);
    this.addSql(
      `alter table "approval_request" add constraint "approval_request_kind_check" check ("kind" in ('wallet_recovery', 'holding_adjustment', 'forced_transfer', 'ops_principal', 'ops_roles', 'ops_token_reset', 'nav_confirmation'));`,
    );
    this.addSql(
      `alter table "nav" drop column "original_close", drop column "corrected_by", drop column "corrected_at", drop column "correction_reason", drop column "correction_request_id";`,
    );
  }
}
