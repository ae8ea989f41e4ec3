import { Migration } from '@mikro-orm/migrations';

/**
 * Lock-up held by the token (lot_freeze: a lot's tokens frozen on chain while in lock-up) and
 * forced transfers (forced_transfer, a new kind of four-eyes request).
 */
export class Migration20261127400000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "lot_freeze" (
      "lot_id" bigint primary key,
      "chain_id" text not null,
      "token_address" text not null,
      "wallet" text not null,
      "units" text not null,
      "released_units" text null,
      "unlocks_at" timestamptz(3) not null,
      "status" text not null check ("status" in ('freezing', 'frozen', 'unfreezing', 'released', 'failed')),
      "freeze_tx_id" bigint null,
      "unfreeze_tx_id" bigint null,
      "error" text null,
      "updated_at" timestamptz(3) not null
    );`);
    this.addSql(`create index "lot_freeze_status_unlocks_at_index" on "lot_freeze" ("status", "unlocks_at");`);
    this.addSql(`create index "lot_freeze_chain_id_token_address_wallet_index" on "lot_freeze" ("chain_id", "token_address", "wallet");`);
    this.addSql(`create index "lot_freeze_freeze_tx_id_index" on "lot_freeze" ("freeze_tx_id");`);
    this.addSql(`create index "lot_freeze_unfreeze_tx_id_index" on "lot_freeze" ("unfreeze_tx_id");`);

    this.addSql(`create table "forced_transfer" (
      "id" bigserial primary key,
      "approval_request_id" bigint not null unique,
      "share_class_id" text not null,
      "chain_id" text not null,
      "token_address" text not null,
      "from_investor_id" text not null,
      "from_wallet" text not null,
      "to_investor_id" text not null,
      "to_wallet" text not null,
      "quantity" text not null,
      "transaction_id" bigint not null unique,
      "status" text not null check ("status" in ('sending', 'done', 'failed')),
      "hash" text null,
      "error" text null,
      "created_at" timestamptz(3) not null,
      "decided_at" timestamptz(3) null
    );`);

    this.addSql(`alter table "approval_request" drop constraint "approval_request_kind_check";`);
    this.addSql(`alter table "approval_request" add constraint "approval_request_kind_check" check ("kind" in ('wallet_recovery', 'holding_adjustment', 'forced_transfer'));`);
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "approval_request" where "kind" = 'forced_transfer';`);
    this.addSql(`alter table "approval_request" drop constraint "approval_request_kind_check";`);
    this.addSql(`alter table "approval_request" add constraint "approval_request_kind_check" check ("kind" in ('wallet_recovery', 'holding_adjustment'));`);
    this.addSql(`drop table if exists "forced_transfer";`);
    this.addSql(`drop table if exists "lot_freeze";`);
  }
}
