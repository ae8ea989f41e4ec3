import { Migration } from '@mikro-orm/migrations';

/**
 * An idempotent answer is kept as the text first sent, not as jsonb (which reorders keys): a
 * replay sends the same bytes (rest-compat/idempotency.ts). Kept answers convert as jsonb prints them.
 */
export class Migration20261124234500 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "idempotency_key" alter column "response_body" type text using "response_body"::text;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "idempotency_key" alter column "response_body" type jsonb using "response_body"::jsonb;`);
  }

}
