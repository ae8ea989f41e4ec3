import { Migration } from '@mikro-orm/migrations';

/**
 * Eligibility is data (issue 46): a rule set per `eligibleInvestors` code (countries allowed or
 * blocked, categories, holders, holding and supply limits), and on each investor a category and
 * KYC dates. Existing share classes name codes no rule set has yet, so they restrict nothing
 * until ops write one; existing investors have no category and no KYC expiry. Two four-eyes kinds:
 * a rule set's change and an investor's category upgrade.
 */
export class Migration20261130020000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "eligibility_rule_set" ("code" text not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null,
      "created_by" text not null, "updated_by" text not null, "created_by_principal" text null, "updated_by_principal" text null,
      "allowed_countries" jsonb null, "blocked_countries" jsonb not null default '[]', "allowed_categories" jsonb null,
      "max_holders" int null check ("max_holders" >= 0), "max_holding_per_investor" numeric(38,18) null check ("max_holding_per_investor" >= 0),
      "supply_cap" numeric(38,18) null check ("supply_cap" >= 0), constraint "eligibility_rule_set_pkey" primary key ("code"));`);
    this.addSql(`alter table "investor" add column "category" text null, add column "kyc_verified_at" timestamptz(3) null, add column "kyc_expires_at" timestamptz(3) null;`);
    this.addSql(
      `alter table "investor" add constraint "investor_category_check" check ("category" in ('retail', 'professional', 'eligible_counterparty', 'us_accredited', 'qualified_purchaser'));`,
    );
    this.addSql(`alter table "approval_request" drop constraint "approval_request_kind_check";`);
    this.addSql(
      `alter table "approval_request" add constraint "approval_request_kind_check" check ("kind" in ('wallet_recovery', 'holding_adjustment', 'forced_transfer', 'ops_principal', 'ops_roles', 'ops_token_reset', 'nav_confirmation', 'eligibility_rules', 'investor_category'));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "approval_request" where "kind" in ('eligibility_rules', 'investor_category');`);
    this.addSql(`alter table "approval_request" drop constraint "approval_request_kind_check";`);
    this.addSql(
      `alter table "approval_request" add constraint "approval_request_kind_check" check ("kind" in ('wallet_recovery', 'holding_adjustment', 'forced_transfer', 'ops_principal', 'ops_roles', 'ops_token_reset', 'nav_confirmation'));`,
    );
    this.addSql(`alter table "investor" drop constraint "investor_category_check";`);
    this.addSql(`alter table "investor" drop column "category", drop column "kyc_verified_at", drop column "kyc_expires_at";`);
    this.addSql(`drop table if exists "eligibility_rule_set";`);
  }
}
