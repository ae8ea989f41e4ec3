import { Migration } from '@mikro-orm/migrations';

/**
 * The NAV correction (Migration20261130010000) and the eligibility requests
 * (Migration20261130020000) were written side by side, each listing the request kinds it knew: the
 * later one left `nav_correction` out of `approval_request_kind_check`. The check lists every kind
 * of `ApprovalKind` again.
 */
const KINDS = [
  'wallet_recovery',
  'holding_adjustment',
  'forced_transfer',
  'ops_principal',
  'ops_roles',
  'ops_token_reset',
  'nav_confirmation',
  'nav_correction',
  'eligibility_rules',
  'investor_category',
];

const check = (kinds: string[]) =>
  `alter table "approval_request" add constraint "approval_request_kind_check" check ("kind" in (${kinds.map((k) => `'${k}'`).join(', ')}));`;

export class Migration20261130090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "approval_request" drop constraint "approval_request_kind_check";`);
    this.addSql(check(KINDS));
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "approval_request" where "kind" = 'nav_correction';`);
    this.addSql(`alter table "approval_request" drop constraint "approval_request_kind_check";`);
    this.addSql(check(KINDS.filter((k) => k !== 'nav_correction')));
  }
}
