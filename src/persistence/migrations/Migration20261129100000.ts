import { Migration } from '@mikro-orm/migrations';

/** The gateway's name rule (src/modules/auth/ops-principal-name.ts), as far as SQL can say it: trimmed, NFKC, lower case. */
const FOLDED = (column: string) => `lower(normalize(btrim(${column}), NFKC))`;

/**
 * An ops principal is a person, not a string (issue 43): `ops_principal` holds one row per person,
 * its name normalised (trimmed, NFKC, case-folded) and unique by the database, and its roles; an
 * ops token belongs to one principal (`principal_id`) and carries no name or roles of its own.
 *
 * Existing tokens become principals by their folded name, so `OP1` and `op1` are one principal
 * (the unique name is what makes a name mean one person). Its roles are the union of the roles of
 * its tokens that still work (not revoked, not expired): a revoked token's roles never come back,
 * and a name whose tokens all ended keeps the union of all of them (nobody holds a credential of it;
 * giving it a token again is a reset that a second admin approves). A merge can widen what a live
 * token may do (two names that were two tokens become one principal with both roles): review
 * `opsPrincipals` after the upgrade, and change roles through `requestOpsRoles`.
 *
 * Four eyes compare principals (`requested_by_principal_id`, `decided_by_principal_id`), never
 * labels: the constraint `approval_request_four_eyes` now says a decided request names both
 * principals and they differ. Existing requests get their principals from their labels; the
 * constraint is added NOT VALID so that history (a request of `OP1` decided by `op1`, now one
 * principal) is kept as it happened, while every new or changed row is checked.
 */
export class Migration20261129100000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "ops_principal" (
      "id" bigserial primary key,
      "name" text not null,
      "roles" text[] not null,
      "created_at" timestamptz(3) not null,
      "created_by" text not null,
      constraint "ops_principal_name_normalised" check ("name" <> '' and "name" = ${FOLDED('"name"')}),
      constraint "ops_principal_roles_check" check (cardinality("roles") > 0 and "roles" <@ array['viewer','operator','approver','admin']::text[])
    );`);
    this.addSql(`create unique index "ops_principal_name_unique" on "ops_principal" ("name");`);

    this.addSql(`insert into "ops_principal" ("name", "roles", "created_at", "created_by")
      select f.folded,
             coalesce(
               (select array_agg(distinct r order by r) from "ops_token" l, unnest(l."roles") r
                 where ${FOLDED('l."name"')} = f.folded and l."revoked_at" is null and l."expires_at" > now()),
               (select array_agg(distinct r order by r) from "ops_token" a, unnest(a."roles") r where ${FOLDED('a."name"')} = f.folded)),
             f.first_issued, 'migration'
      from (select ${FOLDED('"name"')} as folded, min("created_at") as first_issued from "ops_token" group by 1) f
      where f.folded <> '';`);
    // A token whose name folds to nothing named nobody: it ends here.
    this.addSql(`delete from "ops_token" where ${FOLDED('"name"')} = '';`);
    this.addSql(`alter table "ops_token" add column "principal_id" bigint null;`);
    this.addSql(`update "ops_token" t set "principal_id" = p."id" from "ops_principal" p where p."name" = ${FOLDED('t."name"')};`);
    this.addSql(`alter table "ops_token" alter column "principal_id" set not null;`);
    this.addSql(
      `alter table "ops_token" add constraint "ops_token_principal_id_foreign" foreign key ("principal_id") references "ops_principal" ("id") on update cascade;`,
    );
    this.addSql(`create index "ops_token_principal_id_index" on "ops_token" ("principal_id");`);
    this.addSql(`alter table "ops_token" drop column "name";`);
    this.addSql(`alter table "ops_token" drop column "roles";`);

    this.addSql(`alter table "approval_request" add column "requested_by_principal_id" bigint null references "ops_principal" ("id");`);
    this.addSql(`alter table "approval_request" add column "decided_by_principal_id" bigint null references "ops_principal" ("id");`);
    this.addSql(`update "approval_request" r set "requested_by_principal_id" = p."id" from "ops_principal" p
      where r."requested_by" like 'ops:%' and p."name" = ${FOLDED('substr(r."requested_by", 5)')};`);
    this.addSql(`update "approval_request" r set "decided_by_principal_id" = p."id" from "ops_principal" p
      where r."decided_by" like 'ops:%' and p."name" = ${FOLDED('substr(r."decided_by", 5)')};`);
    this.addSql(`alter table "approval_request" drop constraint "approval_request_four_eyes";`);
    this.addSql(`alter table "approval_request" add constraint "approval_request_four_eyes" check (
      ("decided_by" is null and "decided_by_principal_id" is null)
      or ("decided_by_principal_id" is not null and "requested_by_principal_id" is not null and "decided_by_principal_id" <> "requested_by_principal_id")
    ) not valid;`);
    this.addSql(`alter table "approval_request" drop constraint "approval_request_kind_check";`);
    this.addSql(`alter table "approval_request" add constraint "approval_request_kind_check" check ("kind" in
      ('wallet_recovery', 'holding_adjustment', 'forced_transfer', 'ops_principal', 'ops_roles', 'ops_token_reset'));`);
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "approval_request" where "kind" in ('ops_principal', 'ops_roles', 'ops_token_reset');`);
    this.addSql(`alter table "approval_request" drop constraint "approval_request_kind_check";`);
    this.addSql(
      `alter table "approval_request" add constraint "approval_request_kind_check" check ("kind" in ('wallet_recovery', 'holding_adjustment', 'forced_transfer'));`,
    );
    this.addSql(`alter table "approval_request" drop constraint "approval_request_four_eyes";`);
    this.addSql(`alter table "approval_request" add constraint "approval_request_four_eyes" check ("decided_by" is null or "decided_by" <> "requested_by") not valid;`);
    this.addSql(`alter table "approval_request" drop column "decided_by_principal_id";`);
    this.addSql(`alter table "approval_request" drop column "requested_by_principal_id";`);
    this.addSql(`alter table "ops_token" add column "name" text null;`);
    this.addSql(`alter table "ops_token" add column "roles" text[] null;`);
    this.addSql(`update "ops_token" t set "name" = p."name", "roles" = p."roles" from "ops_principal" p where p."id" = t."principal_id";`);
    this.addSql(`alter table "ops_token" alter column "name" set not null;`);
    this.addSql(`alter table "ops_token" alter column "roles" set not null;`);
    this.addSql(`alter table "ops_token" drop column "principal_id";`);
    this.addSql(`drop table if exists "ops_principal";`);
  }
}
