import { Migration } from '@mikro-orm/migrations';

export class Migration20261121174953 extends Migration {

  override async up(): Promise<void> {
    // Orders of a distributor in one status, newest first: the subscription lists with `?status=`
    // read an index range instead of filtering all of the distributor's orders (issue 6).
    // (The generator also proposed dropping the hand-added partial index
    // "token_primary_per_share_class", which the entities cannot express: kept.)
    this.addSql(`create index "order_distributor_id_status_created_at_id_index" on "order" ("distributor_id", "status", "created_at", "id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "order_distributor_id_status_created_at_id_index";`);
  }

}
