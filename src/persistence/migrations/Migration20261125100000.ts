import { Migration } from '@mikro-orm/migrations';

/** A wallet recovered from a lost one (`recoverInvestorWallet`) names the wallet it replaces. */
export class Migration20261125100000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "investor_wallet" add column "recovered_from" bigint null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "investor_wallet" drop column if exists "recovered_from";`);
  }
}
