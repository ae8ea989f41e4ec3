import { Migration } from '@mikro-orm/migrations';

/**
 * Custody (docs/custody.md): one transfer settles one order — `settlement_transfer` keys each
 * settled order by the transfer that settled it (chain, hash, log index; -1 where the chain was
 * not read and the hash alone names it), so two requests cannot both settle with it; and the
 * custody rule looks wallets up by address, whatever its case.
 */
export class Migration20261126100000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "settlement_transfer" (
      "chain_id" text not null,
      "transfer_hash" text not null,
      "log_index" int not null,
      "order_id" text not null,
      "created_at" timestamptz not null default now(),
      constraint "settlement_transfer_pkey" primary key ("chain_id", "transfer_hash", "log_index"));`);
    this.addSql(`create index "settlement_transfer_order_id_index" on "settlement_transfer" ("order_id");`);
    this.addSql(`create index "investor_wallet_address_lower_index" on "investor_wallet" (lower("address"));`);
    this.addSql(`create index "distributor_wallet_address_lower_index" on "distributor_wallet" (lower("address"));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "settlement_transfer";`);
    this.addSql(`drop index if exists "investor_wallet_address_lower_index";`);
    this.addSql(`drop index if exists "distributor_wallet_address_lower_index";`);
  }
}
