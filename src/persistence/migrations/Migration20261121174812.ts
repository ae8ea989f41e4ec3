import { Migration } from '@mikro-orm/migrations';

export class Migration20261121174812 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "webhook" ("id" text not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, "created_by" text not null, "updated_by" text not null, "distributor_id" text not null, "event_type" text not null, "endpoint_url" text not null, "status" text check ("status" in ('active', 'disabled')) not null default 'active', "disabled_reason" text null, "secret_cipher" text not null, "previous_secret_cipher" text null, "previous_secret_until" timestamptz(3) null, constraint "webhook_pkey" primary key ("id"));`);
    this.addSql(`create index "webhook_distributor_id_endpoint_url_index" on "webhook" ("distributor_id", "endpoint_url");`);
    this.addSql(`create index "webhook_distributor_id_event_type_status_index" on "webhook" ("distributor_id", "event_type", "status");`);

    this.addSql(`create table "webhook_delivery" ("id" bigserial primary key, "webhook_id" text not null, "event_id" text not null, "event_type" text not null, "distributor_id" text not null, "body" text not null, "test" boolean not null default false, "status" text check ("status" in ('pending', 'in_flight', 'succeeded', 'dead')) not null default 'pending', "attempts" int not null default 0, "schedule_step" int not null default 0, "next_attempt_at" timestamptz(3) not null, "lease_until" timestamptz(3) null, "last_error" text null, "created_at" timestamptz(3) not null, "completed_at" timestamptz(3) null);`);
    this.addSql(`create index "webhook_delivery_webhook_id_created_at_index" on "webhook_delivery" ("webhook_id", "created_at");`);
    this.addSql(`create index "webhook_delivery_status_next_attempt_at_index" on "webhook_delivery" ("status", "next_attempt_at");`);
    this.addSql(`alter table "webhook_delivery" add constraint "webhook_delivery_webhook_id_event_id_unique" unique ("webhook_id", "event_id");`);

    this.addSql(`create table "webhook_attempt" ("id" bigserial primary key, "delivery_id" bigint not null, "number" int not null, "attempted_at" timestamptz(3) not null, "status_code" int null, "latency_ms" int not null, "success" boolean not null, "error" text null);`);
    this.addSql(`create index "webhook_attempt_delivery_id_number_index" on "webhook_attempt" ("delivery_id", "number");`);

    this.addSql(`alter table "webhook" add constraint "webhook_distributor_id_foreign" foreign key ("distributor_id") references "distributor" ("id") on update cascade on delete restrict;`);

    this.addSql(`alter table "webhook_delivery" add constraint "webhook_delivery_webhook_id_foreign" foreign key ("webhook_id") references "webhook" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "webhook_attempt" add constraint "webhook_attempt_delivery_id_foreign" foreign key ("delivery_id") references "webhook_delivery" ("id") on update cascade on delete cascade;`);

    // Hand-added: the relay's scan of pending events, and a NOTIFY at commit of every insert
    // into the event log so relays on a PostgreSQL server wake at once (they also poll).
    this.addSql(`create index "event_pending_index" on "event" ("position") where "relayed_at" is null;`);
    this.addSql(`create or replace function "gateway_notify_event"() returns trigger language plpgsql as $$ begin perform pg_notify('gateway_event', ''); return null; end $$;`);
    this.addSql(`create trigger "event_notify" after insert on "event" for each statement execute function "gateway_notify_event"();`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "webhook_delivery" drop constraint "webhook_delivery_webhook_id_foreign";`);

    this.addSql(`alter table "webhook_attempt" drop constraint "webhook_attempt_delivery_id_foreign";`);

    this.addSql(`drop table if exists "webhook" cascade;`);

    this.addSql(`drop table if exists "webhook_delivery" cascade;`);

    this.addSql(`drop table if exists "webhook_attempt" cascade;`);

    this.addSql(`drop trigger if exists "event_notify" on "event";`);
    this.addSql(`drop function if exists "gateway_notify_event"();`);
    this.addSql(`drop index if exists "event_pending_index";`);
  }

}
