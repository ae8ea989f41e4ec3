import { Migration } from '@mikro-orm/migrations';

/**
 * The holding ledger's journal (holding-movement.entity.ts): one row per change of a holding, an
 * order's at most once (unique `order_id`), which makes a settlement idempotent per order. Each
 * holding written before the journal was kept opens it with its balance.
 */
export class Migration20261124232000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "holding_movement" ("id" bigserial primary key, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, "created_by" text not null, "updated_by" text not null, "investor_id" text not null, "share_class_id" text not null, "change" numeric(38,18) not null, "balance" numeric(38,18) not null, "source" text check ("source" in ('order', 'adjustment', 'opening')) not null, "order_id" text null, "transfer_hash" text null, "reason" text null, "at" timestamptz(3) not null);`);
    this.addSql(`create index "holding_movement_investor_id_share_class_id_at_index" on "holding_movement" ("investor_id", "share_class_id", "at");`);
    this.addSql(`alter table "holding_movement" add constraint "holding_movement_order_id_unique" unique ("order_id");`);
    this.addSql(`alter table "holding_movement" add constraint "holding_movement_investor_id_foreign" foreign key ("investor_id") references "investor" ("id") on update cascade on delete restrict;`);
    this.addSql(`alter table "holding_movement" add constraint "holding_movement_share_class_id_foreign" foreign key ("share_class_id") references "share_class" ("id") on update cascade on delete restrict;`);
    this.addSql(`insert into "holding_movement" ("created_at", "updated_at", "created_by", "updated_by", "investor_id", "share_class_id", "change", "balance", "source", "at")
      select now(), now(), 'migration', 'migration', "investor_id", "share_class_id", "balance", "balance", 'opening', "created_at" from "holding" where "balance" <> 0;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "holding_movement" cascade;`);
  }

}
