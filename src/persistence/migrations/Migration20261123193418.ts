import { Migration } from '@mikro-orm/migrations';

export class Migration20261123193418 extends Migration {

  override async up(): Promise<void> {
    // Idempotency-Key (issue 14): one row per distributor and key, kept 24 hours.
    this.addSql(`create table "idempotency_key" ("distributor_id" text not null, "key" text not null, "fingerprint" text not null, "state" text not null default 'running', "response_status" int null, "response_body" jsonb null, "created_at" timestamptz(3) not null, "expires_at" timestamptz(3) not null, constraint "idempotency_key_pkey" primary key ("distributor_id", "key"));`);
    this.addSql(`create index "idempotency_key_expires_at_index" on "idempotency_key" ("expires_at");`);

    // The event feed's cursor: the relay numbers events from this sequence as it announces them,
    // one relay at a time, so the numbers follow commit order (src/events/relay.ts).
    // (The generator also proposed dropping the hand-added partial index "event_pending_index",
    // which the entities cannot express: kept.)
    this.addSql(`create sequence "event_feed_position_seq";`);
    this.addSql(`alter table "event" add column "feed_position" bigint null;`);
    this.addSql(`create index "event_distributor_id_feed_position_index" on "event" ("distributor_id", "feed_position");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "idempotency_key" cascade;`);

    this.addSql(`drop index "event_distributor_id_feed_position_index";`);
    this.addSql(`alter table "event" drop column "feed_position";`);
    this.addSql(`drop sequence "event_feed_position_seq";`);
  }

}
