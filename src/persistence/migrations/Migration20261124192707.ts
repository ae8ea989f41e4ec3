import { Migration } from '@mikro-orm/migrations';

/**
 * The open redemptions of a holding in an index of their own: every redemption sums them under
 * the holding's lock, and through the investor's index that sum read every order the investor
 * ever placed (tens of thousands after a benchmark run), holding the lock all the while.
 */
export class Migration20261124192707 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create index "order_open_redemption_index" on "order" ("investor_id", "share_class_id") where "flow" = 'one_step' and "type" = 'redemption' and "status" in ('pending', 'accepted');`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "order_open_redemption_index";`);
  }

}
