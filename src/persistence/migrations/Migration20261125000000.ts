import { Migration } from '@mikro-orm/migrations';

/**
 * The chain follower (src/modules/chain/follower.ts): its cursor per chain, the hashes of the
 * blocks it processed (a block whose hash changed is re-read and its effects undone), the
 * movements it saw (`chain_movement`); the orders of batch settlements (`chain_batch_order`); scheduled reconciliations (`reconciliation_run`); and lots of tokens received on chain (`transfer`).
 */
export class Migration20261125000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "chain_follow_cursor" ("chain_id" text not null primary key, "block_number" bigint not null, "updated_at" timestamptz(3) not null);`);
    this.addSql(`create table "chain_followed_block" ("chain_id" text not null, "block_number" bigint not null, "block_hash" text not null, primary key ("chain_id", "block_number"));`);
    this.addSql(`create table "chain_movement" ("id" bigserial primary key, "chain_id" text not null, "token_address" text not null, "share_class_id" text not null,
      "block_number" bigint not null, "block_hash" text not null, "log_index" int not null, "transaction_hash" text not null, "from_address" text not null, "to_address" text not null,
      "tokens" numeric(38,18) not null, "kind" text check ("kind" in ('transfer', 'own_wallets', 'unknown_holder', 'issuance')) not null,
      "from_investor_id" text null, "to_investor_id" text null, "lots_taken" jsonb null, "observed_at" timestamptz(3) not null, "undone_at" timestamptz(3) null);`);
    this.addSql(`create index "chain_movement_share_class_id_block_number_index" on "chain_movement" ("share_class_id", "block_number");`);
    this.addSql(`create unique index "chain_movement_one_per_log" on "chain_movement" ("chain_id", "block_hash", "log_index");`);
    this.addSql(`create table "chain_batch_order" ("order_id" text not null primary key, "transaction_id" bigint not null, "units" text not null);`);
    this.addSql(`create index "chain_batch_order_transaction_id_index" on "chain_batch_order" ("transaction_id");`);
    this.addSql(`create table "reconciliation_run" ("id" bigserial primary key, "share_class_id" text not null, "chain_id" text not null, "block_number" bigint not null,
      "total_difference" numeric(38,18) not null, "supply_difference" numeric(38,18) not null, "result" jsonb not null, "at" timestamptz(3) not null);`);
    this.addSql(`create index "reconciliation_run_share_class_id_at_index" on "reconciliation_run" ("share_class_id", "at");`);
    for (const table of ['holding_lot', 'holding_movement']) {
      this.addSql(`alter table "${table}" drop constraint if exists "${table}_source_check";`);
      this.addSql(`alter table "${table}" add constraint "${table}_source_check" check ("source" in ('order', 'adjustment', 'opening', 'transfer'));`);
    }
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "reconciliation_run" cascade;`);
    this.addSql(`drop table if exists "chain_batch_order" cascade;`);
    this.addSql(`drop table if exists "chain_movement" cascade;`);
    this.addSql(`drop table if exists "chain_followed_block" cascade;`);
    this.addSql(`drop table if exists "chain_follow_cursor" cascade;`);
  }
}
