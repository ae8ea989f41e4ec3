import { Migration } from '@mikro-orm/migrations';

/**
 * Ops tokens carry roles (src/access/ops-roles.ts). Tokens issued before roles existed become
 * `viewer`: the safe default is the least one — a token that could do everything keeps reading,
 * and nothing it was never explicitly given (approving, issuing tokens) appears by itself. An
 * operator issues new tokens with their roles (`npm run ops-token -- <name> --role …`, which needs
 * the database and is the root of trust) and revokes the old ones.
 */
export class Migration20261126200000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "ops_token" add column "roles" text[] not null default '{viewer}';`);
    this.addSql(`alter table "ops_token" alter column "roles" drop default;`);
    this.addSql(`alter table "ops_token" add constraint "ops_token_roles_check" check (cardinality("roles") > 0 and "roles" <@ array['viewer','operator','approver','admin']::text[]);`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "ops_token" drop column if exists "roles";`);
  }
}
