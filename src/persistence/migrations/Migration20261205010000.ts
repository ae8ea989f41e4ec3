import { Migration } from '@mikro-orm/migrations';

/**
 * The country (ISO 3166-1 numeric) the gateway gave the identity registries for each wallet. It is
 * not known for wallets registered before (null): the country backfill
 * (src/modules/investor/wallet-country.ts) reads it on chain once and corrects it where it differs.
 */
export class Migration20261205010000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "investor_wallet" add column "registered_country" smallint null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "investor_wallet" drop column "registered_country";`);
  }
}
