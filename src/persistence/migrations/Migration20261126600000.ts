import { Migration } from '@mikro-orm/migrations';

/** What a chain transaction does, in words (a deployment's step: "identity registry", "token"), for the pages that list them. */
export class Migration20261126600000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "chain_transaction" add column "step" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "chain_transaction" drop column if exists "step";`);
  }
}
