import { Migration } from '@mikro-orm/migrations';

/** Two-step push claim (src/modules/order/two-step.service.ts): who is talking to the provider, since when. */
export class Migration20261121174442 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "order" add column "push_claim" text null, add column "push_claimed_at" timestamptz(3) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "order" drop column "push_claim", drop column "push_claimed_at";`);
  }
}
