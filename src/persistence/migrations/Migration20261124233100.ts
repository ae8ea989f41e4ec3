import { Migration } from '@mikro-orm/migrations';

/**
 * The redemption fee copied from the share class at placement, as `fees_sub_bps` is for a
 * subscription: a redemption's proceeds are priced with it at acceptance (order.pricing.ts).
 */
export class Migration20261124233100 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "order" add column "fees_red_bps" int null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "order" drop column "fees_red_bps";`);
  }

}
