import { Migration } from '@mikro-orm/migrations';

/**
 * One active webhook per distributor, event type and URL, enforced by the database so two
 * concurrent registrations cannot both pass the service's check. Duplicates that such races
 * left behind are disabled first (the oldest registration stays active).
 */
export class Migration20261123195427 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`update "webhook" w set "status" = 'disabled', "disabled_reason" = 'duplicate registration' where w."status" = 'active' and exists (select 1 from "webhook" o where o."status" = 'active' and o."distributor_id" = w."distributor_id" and o."event_type" = w."event_type" and o."endpoint_url" = w."endpoint_url" and (o."created_at", o."id") < (w."created_at", w."id"));`);

    this.addSql(`create unique index "webhook_active_registration_unique" on "webhook" ("distributor_id", "event_type", "endpoint_url") where "status" = 'active';`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "webhook_active_registration_unique";`);
  }

}
