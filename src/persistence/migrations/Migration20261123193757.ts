import { Migration } from '@mikro-orm/migrations';

export class Migration20261123193757 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "holding_lot" ("id" bigserial primary key, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, "created_by" text not null, "updated_by" text not null, "investor_id" text not null, "share_class_id" text not null, "quantity" numeric(38,18) not null, "remaining" numeric(38,18) not null, "settled_at" timestamptz(3) not null, "source" text check ("source" in ('order', 'adjustment', 'opening')) not null, "order_id" text null, "reason" text null);`);
    this.addSql(`create index "holding_lot_investor_id_share_class_id_settled_at_index" on "holding_lot" ("investor_id", "share_class_id", "settled_at");`);

    this.addSql(`create table "dealing_calendar" ("share_class_id" text not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, "created_by" text not null, "updated_by" text not null, "time_zone" text not null default 'UTC', "cut_off_time" text not null default '24:00', "settlement_lag_days" int not null default 1, "anchor_date" text not null default '2000-01-03', "holidays" jsonb not null default '[]', "settlement_currencies" jsonb not null default '[]', constraint "dealing_calendar_pkey" primary key ("share_class_id"));`);

    this.addSql(`alter table "holding_lot" add constraint "holding_lot_investor_id_foreign" foreign key ("investor_id") references "investor" ("id") on update cascade on delete restrict;`);
    this.addSql(`alter table "holding_lot" add constraint "holding_lot_share_class_id_foreign" foreign key ("share_class_id") references "share_class" ("id") on update cascade on delete restrict;`);

    this.addSql(`alter table "dealing_calendar" add constraint "dealing_calendar_share_class_id_foreign" foreign key ("share_class_id") references "share_class" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "order" add column "dealing_date" date null, add column "cut_off_at" timestamptz(3) null, add column "expected_settlement_date" date null;`);
    this.addSql(`create index "order_dealing_date_index" on "order" ("dealing_date");`);
    this.addSql(`create index "order_expected_settlement_date_index" on "order" ("expected_settlement_date");`);

    // Holdings written before lots were kept become one opening lot each, settled when the holding was first written.
    this.addSql(`insert into "holding_lot" ("created_at", "updated_at", "created_by", "updated_by", "investor_id", "share_class_id", "quantity", "remaining", "settled_at", "source")
      select now(), now(), 'migration', 'migration', "investor_id", "share_class_id", "balance", "balance", "created_at", 'opening' from "holding" where "balance" > 0;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "holding_lot" cascade;`);

    this.addSql(`drop table if exists "dealing_calendar" cascade;`);

    this.addSql(`drop index "order_dealing_date_index";`);
    this.addSql(`drop index "order_expected_settlement_date_index";`);
    this.addSql(`alter table "order" drop column "dealing_date", drop column "cut_off_at", drop column "expected_settlement_date";`);
  }

}
