import { Migration } from '@mikro-orm/migrations';

/**
 * A jump needs a second person (issue 44, CSSF Circular 24/856). A share class has a NAV asset
 * class (its default tolerance: money market 20 bps, bond and mixed 50, equity and other 100) and
 * may set its own tolerance; existing classes are `other` (100 bps) until ops say otherwise, since
 * the documented `overview.assetClass` is free text. A NAV records who struck it and, when it was
 * outside the tolerance, who confirmed it and by which request; the NAVs already published were
 * struck by whoever wrote them. A NAV outside the tolerance waits as a `nav_confirmation` request,
 * one per share class and entry.
 */
export class Migration20261129600000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "share_class" add column "nav_asset_class" text not null default 'other', add column "nav_tolerance_override_bps" int null;`);
    this.addSql(
      `alter table "share_class" add constraint "share_class_nav_asset_class_check" check ("nav_asset_class" in ('money_market', 'bond', 'mixed', 'equity', 'other'));`,
    );
    this.addSql(
      `alter table "share_class" add constraint "share_class_nav_tolerance_override_bps_check" check ("nav_tolerance_override_bps" between 0 and 10000);`,
    );

    this.addSql(`alter table "nav" add column "struck_by" text null, add column "confirmed_by" text null, add column "confirmation_request_id" bigint null;`);
    this.addSql(`update "nav" set "struck_by" = coalesce("created_by_principal", "created_by");`);
    this.addSql(`alter table "nav" alter column "struck_by" set not null;`);
    this.addSql(`alter table "nav" add constraint "nav_confirmed_by_another" check ("confirmed_by" is null or "confirmed_by" <> "struck_by");`);

    this.addSql(`alter table "approval_request" drop constraint "approval_request_kind_check";`);
    this.addSql(
      `alter table "approval_request" add constraint "approval_request_kind_check" check ("kind" in ('wallet_recovery', 'holding_adjustment', 'forced_transfer', 'ops_principal', 'ops_roles', 'ops_token_reset', 'nav_confirmation'));`,
    );
    this.addSql(
      `create unique index "approval_request_pending_nav" on "approval_request" (("arguments"->>'shareClassId'), ("arguments"->>'entryId')) where "kind" = 'nav_confirmation' and "status" = 'requested';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "approval_request_pending_nav";`);
    this.addSql(`delete from "approval_request" where "kind" = 'nav_confirmation';`);
    this.addSql(`alter table "approval_request" drop constraint "approval_request_kind_check";`);
    this.addSql(
      `alter table "approval_request" add constraint "approval_request_kind_check" check ("kind" in ('wallet_recovery', 'holding_adjustment', 'forced_transfer', 'ops_principal', 'ops_roles', 'ops_token_reset'));`,
    );
    this.addSql(`alter table "nav" drop constraint "nav_confirmed_by_another";`);
    this.addSql(`alter table "nav" drop column "struck_by", drop column "confirmed_by", drop column "confirmation_request_id";`);
    this.addSql(`alter table "share_class" drop constraint "share_class_nav_tolerance_override_bps_check";`);
    this.addSql(`alter table "share_class" drop constraint "share_class_nav_asset_class_check";`);
    this.addSql(`alter table "share_class" drop column "nav_asset_class", drop column "nav_tolerance_override_bps";`);
  }
}
