import { Migration } from '@mikro-orm/migrations';

export class Migration20261121173553 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "distributor" ("id" text not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, "created_by" text not null, "updated_by" text not null, "name" text not null, "status" text not null default 'active', constraint "distributor_pkey" primary key ("id"));`);

    this.addSql(`create table "distributor_host" ("hostname" text not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, "created_by" text not null, "updated_by" text not null, "distributor_id" text not null, constraint "distributor_host_pkey" primary key ("hostname"));`);
    this.addSql(`create index "distributor_host_distributor_id_index" on "distributor_host" ("distributor_id");`);

    this.addSql(`create table "distributor_wallet" ("id" bigserial primary key, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, "created_by" text not null, "updated_by" text not null, "distributor_id" text not null, "chain_id" text not null, "address" text not null);`);
    this.addSql(`alter table "distributor_wallet" add constraint "distributor_wallet_distributor_id_chain_id_unique" unique ("distributor_id", "chain_id");`);

    this.addSql(`create table "event" ("position" bigserial primary key, "event_id" text not null, "type" text not null, "aggregate_type" text not null, "aggregate_id" text not null, "distributor_id" text null, "payload" jsonb not null, "occurred_at" timestamptz(3) not null, "relayed_at" timestamptz(3) null);`);
    this.addSql(`alter table "event" add constraint "event_event_id_unique" unique ("event_id");`);
    this.addSql(`create index "event_distributor_id_index" on "event" ("distributor_id");`);
    this.addSql(`create index "event_relayed_at_position_index" on "event" ("relayed_at", "position");`);

    this.addSql(`create table "investor" ("id" text not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, "created_by" text not null, "updated_by" text not null, "distributor_id" text not null, "external_investor_id" text null, "email" text null, "name" text null, "country_code" text null, "status" text not null default 'active', constraint "investor_pkey" primary key ("id"));`);
    this.addSql(`create index "investor_email_index" on "investor" (lower("email"));`);
    this.addSql(`create index "investor_distributor_id_external_investor_id_index" on "investor" ("distributor_id", "external_investor_id");`);

    this.addSql(`create table "investor_wallet" ("id" bigserial primary key, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, "created_by" text not null, "updated_by" text not null, "investor_id" text not null, "chain_id" text not null, "address" text not null, "status" text check ("status" in ('pending', 'whitelisted', 'removed')) not null default 'pending', "whitelisted_at" timestamptz(3) null, "removed_at" timestamptz(3) null, "removal_reason" text null);`);
    this.addSql(`create index "investor_wallet_investor_id_index" on "investor_wallet" ("investor_id");`);
    this.addSql(`create unique index "investor_wallet_in_use_unique" on "investor_wallet" ("investor_id", "chain_id") where "status" <> 'removed';`);

    this.addSql(`create table "issuer" ("id" text not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, "created_by" text not null, "updated_by" text not null, "name" text not null, "lei" text null, "jurisdiction" text null, constraint "issuer_pkey" primary key ("id"));`);

    this.addSql(`create table "fund" ("id" text not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, "created_by" text not null, "updated_by" text not null, "issuer_id" text not null, "name" text not null, "description" text null, constraint "fund_pkey" primary key ("id"));`);
    this.addSql(`create index "fund_issuer_id_index" on "fund" ("issuer_id");`);

    this.addSql(`create table "ops_token" ("id" bigserial primary key, "name" text not null, "token_hash" text not null, "created_at" timestamptz(3) not null, "revoked_at" timestamptz(3) null);`);
    this.addSql(`alter table "ops_token" add constraint "ops_token_token_hash_unique" unique ("token_hash");`);

    this.addSql(`create table "share_class" ("id" text not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, "created_by" text not null, "updated_by" text not null, "fund_id" text not null, "currency" text not null, "provider" text not null, "status" text not null default 'active', "fees_sub_bps" int not null, "fees_red_bps" int not null, "fees_mgmt_bps" int not null, "fees_perf_bps" int not null, "fees_watermark_bps" int not null, "meta" jsonb not null, "details" jsonb not null, "metrics" jsonb not null, "overview" jsonb not null, "sub_redemption" jsonb not null, "bank" jsonb not null, constraint "share_class_pkey" primary key ("id"));`);
    this.addSql(`create index "share_class_fund_id_index" on "share_class" ("fund_id");`);

    this.addSql(`create table "order" ("id" text not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, "created_by" text not null, "updated_by" text not null, "flow" text check ("flow" in ('two_step', 'one_step')) not null, "surface" text check ("surface" in ('R', 'O')) not null, "type" text check ("type" in ('subscription', 'redemption')) not null, "status" text not null, "distributor_id" text not null, "investor_id" text not null, "share_class_id" text not null, "currency" text null, "amount" numeric(38,18) null, "token_count" numeric(38,18) null, "fees_sub_bps" int null, "amount_fees_total" numeric(38,18) null, "amount_payable" numeric(38,18) null, "nav" numeric(38,18) null, "nav_published_at" timestamptz(3) null, "amount_tokens_estimated" numeric(38,18) null, "delivery_mode" text null, "delivery_wallet" text null, "chain_id" text null, "wallet_address" text null, "external_ref" text null, "supply_refs" jsonb null, "settlement_nav" numeric(38,18) null, "settlement_tokens" numeric(38,18) null, "settlement_amount" numeric(38,18) null, "transfer_hash" text null, "failure_reason" text null, "event_seq" int not null default 0, constraint "order_pkey" primary key ("id"));`);
    this.addSql(`create index "order_distributor_id_external_ref_index" on "order" ("distributor_id", "external_ref");`);
    this.addSql(`create index "order_share_class_id_created_at_id_index" on "order" ("share_class_id", "created_at", "id");`);
    this.addSql(`create index "order_investor_id_created_at_id_index" on "order" ("investor_id", "created_at", "id");`);
    this.addSql(`create index "order_distributor_id_created_at_id_index" on "order" ("distributor_id", "created_at", "id");`);

    this.addSql(`create table "order_status_entry" ("id" bigserial primary key, "order_id" text not null, "at" timestamptz(3) not null, "status" text not null, "by" text not null, "note" text null);`);
    this.addSql(`create index "order_status_entry_order_id_at_index" on "order_status_entry" ("order_id", "at");`);

    this.addSql(`create table "nav" ("id" bigserial primary key, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, "created_by" text not null, "updated_by" text not null, "share_class_id" text not null, "entry_id" text not null, "close" numeric(38,18) not null, "open" numeric(38,18) not null, "high" numeric(38,18) not null, "low" numeric(38,18) not null, "currency" text not null, "volume" numeric(38,8) not null default '0', "published_at" timestamptz(3) not null);`);
    this.addSql(`create index "nav_share_class_id_published_at_index" on "nav" ("share_class_id", "published_at");`);
    this.addSql(`alter table "nav" add constraint "nav_share_class_id_entry_id_unique" unique ("share_class_id", "entry_id");`);

    this.addSql(`create table "investor_grant" ("id" bigserial primary key, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, "created_by" text not null, "updated_by" text not null, "investor_id" text not null, "share_class_id" text not null);`);
    this.addSql(`create index "investor_grant_share_class_id_index" on "investor_grant" ("share_class_id");`);
    this.addSql(`alter table "investor_grant" add constraint "investor_grant_investor_id_share_class_id_unique" unique ("investor_id", "share_class_id");`);

    this.addSql(`create table "holding" ("id" bigserial primary key, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, "created_by" text not null, "updated_by" text not null, "investor_id" text not null, "share_class_id" text not null, "balance" numeric(38,18) not null default '0');`);
    this.addSql(`create index "holding_share_class_id_index" on "holding" ("share_class_id");`);
    this.addSql(`alter table "holding" add constraint "holding_investor_id_share_class_id_unique" unique ("investor_id", "share_class_id");`);

    this.addSql(`create table "share_class_grant" ("id" bigserial primary key, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, "created_by" text not null, "updated_by" text not null, "distributor_id" text not null, "share_class_id" text not null, "delivery_mode" text check ("delivery_mode" in ('passthrough', 'hold')) not null);`);
    this.addSql(`create index "share_class_grant_share_class_id_index" on "share_class_grant" ("share_class_id");`);
    this.addSql(`alter table "share_class_grant" add constraint "share_class_grant_distributor_id_share_class_id_unique" unique ("distributor_id", "share_class_id");`);

    this.addSql(`create table "token" ("id" text not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, "created_by" text not null, "updated_by" text not null, "share_class_id" text not null, "chain_id" text not null, "contract_address" text not null, "name" text not null, "symbol" text not null, "decimals" int not null, "is_primary" boolean not null default false, constraint "token_pkey" primary key ("id"));`);
    this.addSql(`create index "token_share_class_id_index" on "token" ("share_class_id");`);
    this.addSql(`create index "token_chain_id_contract_address_index" on "token" ("chain_id", "contract_address");`);

    this.addSql(`alter table "distributor_host" add constraint "distributor_host_distributor_id_foreign" foreign key ("distributor_id") references "distributor" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "distributor_wallet" add constraint "distributor_wallet_distributor_id_foreign" foreign key ("distributor_id") references "distributor" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "investor" add constraint "investor_distributor_id_foreign" foreign key ("distributor_id") references "distributor" ("id") on update cascade on delete restrict;`);

    this.addSql(`alter table "investor_wallet" add constraint "investor_wallet_investor_id_foreign" foreign key ("investor_id") references "investor" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "fund" add constraint "fund_issuer_id_foreign" foreign key ("issuer_id") references "issuer" ("id") on update cascade on delete restrict;`);

    this.addSql(`alter table "share_class" add constraint "share_class_fund_id_foreign" foreign key ("fund_id") references "fund" ("id") on update cascade on delete restrict;`);

    this.addSql(`alter table "order" add constraint "order_distributor_id_foreign" foreign key ("distributor_id") references "distributor" ("id") on update cascade on delete restrict;`);
    this.addSql(`alter table "order" add constraint "order_investor_id_foreign" foreign key ("investor_id") references "investor" ("id") on update cascade on delete restrict;`);
    this.addSql(`alter table "order" add constraint "order_share_class_id_foreign" foreign key ("share_class_id") references "share_class" ("id") on update cascade on delete restrict;`);

    this.addSql(`alter table "order_status_entry" add constraint "order_status_entry_order_id_foreign" foreign key ("order_id") references "order" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "nav" add constraint "nav_share_class_id_foreign" foreign key ("share_class_id") references "share_class" ("id") on update cascade on delete restrict;`);

    this.addSql(`alter table "investor_grant" add constraint "investor_grant_investor_id_foreign" foreign key ("investor_id") references "investor" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "investor_grant" add constraint "investor_grant_share_class_id_foreign" foreign key ("share_class_id") references "share_class" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "holding" add constraint "holding_investor_id_foreign" foreign key ("investor_id") references "investor" ("id") on update cascade on delete restrict;`);
    this.addSql(`alter table "holding" add constraint "holding_share_class_id_foreign" foreign key ("share_class_id") references "share_class" ("id") on update cascade on delete restrict;`);

    this.addSql(`alter table "share_class_grant" add constraint "share_class_grant_distributor_id_foreign" foreign key ("distributor_id") references "distributor" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "share_class_grant" add constraint "share_class_grant_share_class_id_foreign" foreign key ("share_class_id") references "share_class" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "token" add constraint "token_share_class_id_foreign" foreign key ("share_class_id") references "share_class" ("id") on update cascade on delete restrict;`);

    // One primary token per share class: its chain is the share class's defaultChainId.
    this.addSql(`create unique index "token_primary_per_share_class" on "token" ("share_class_id") where "is_primary";`);

    // Id sequences, one per prefix (src/common/ids.ts).
    for (const prefix of ['is', 'fn', 'sc', 'tk', 'dt', 'in', 'or']) {
      this.addSql(`create sequence "id_seq_${prefix}";`);
    }
  }

}
