import { Migration } from '@mikro-orm/migrations';

/**
 * An investor's orders in one status, newest first, as an index range, like a distributor's:
 * `GET /orders/subscriptions/investor/:id?status=` and the ops console's investor filter read
 * every order the investor ever placed through (investor, createdAt) and dropped the others.
 */
export class Migration20261124194146 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create index "order_investor_id_status_created_at_id_index" on "order" ("investor_id", "status", "created_at", "id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "order_investor_id_status_created_at_id_index";`);
  }

}
