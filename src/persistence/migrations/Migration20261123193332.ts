import { Migration } from '@mikro-orm/migrations';

/** An order's events by id (the ops console lists the webhook deliveries of an order's events). */
export class Migration20261123193332 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create index "event_aggregate_type_aggregate_id_index" on "event" ("aggregate_type", "aggregate_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "event_aggregate_type_aggregate_id_index";`);
  }

}
