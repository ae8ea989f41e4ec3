import { Migration } from '@mikro-orm/migrations';

/**
 * Ops tokens expire (OPS_TOKEN_TTL_SECONDS, 30 days by default). Tokens issued before had no
 * expiry: they get the default lifetime from their issue, so a forgotten old token stops working
 * instead of living forever.
 */
export class Migration20261124235500 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "ops_token" add column "expires_at" timestamptz(3) null;`);
    this.addSql(`update "ops_token" set "expires_at" = "created_at" + interval '30 days';`);
    this.addSql(`alter table "ops_token" alter column "expires_at" set not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "ops_token" drop column "expires_at";`);
  }

}
