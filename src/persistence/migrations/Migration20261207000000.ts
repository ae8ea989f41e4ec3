import { Migration } from '@mikro-orm/migrations';

/**
 * A wallet frozen on a share class's token by an operator (src/modules/investor/wallet-freeze.ts),
 * at most one held (not `lifted`) per wallet and class; and its unfreeze, a four-eyes request kind
 * (`wallet_unfreeze`).
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

export class Migration20261207000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "wallet_freeze" ("id" bigserial primary key, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, "created_by" text not null, "updated_by" text not null, "created_by_principal" text null, "updated_by_principal" text null, "wallet_id" bigint not null, "investor_id" text not null, "share_class_id" text not null, "chain_id" text not null, "token_address" text not null, "wallet_address" text not null, "status" text check ("status" in ('freezing', 'frozen', 'failed', 'unfreezing', 'lifted')) not null, "reason" text not null, "frozen_by" text not null, "frozen_at" timestamptz(3) not null, "freeze_transaction_id" bigint not null, "unfreeze_request_id" bigint null, "unfreeze_transaction_id" bigint null, "lifted_at" timestamptz(3) null, "error" text null);`,
    );
    this.addSql(
      `alter table "wallet_freeze" add constraint "wallet_freeze_wallet_id_foreign" foreign key ("wallet_id") references "investor_wallet" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(`create index "wallet_freeze_investor_id_share_class_id_index" on "wallet_freeze" ("investor_id", "share_class_id");`);
    this.addSql(`create unique index "wallet_freeze_held_unique" on "wallet_freeze" ("wallet_id", "share_class_id") where "status" <> 'lifted';`);
    this.addSql(`alter table "approval_request" drop constraint "approval_request_kind_check";`);
    this.addSql(check([...KINDS, 'wallet_unfreeze']));
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "approval_request" where "kind" = 'wallet_unfreeze';`);
    this.addSql(`alter table "approval_request" drop constraint "approval_request_kind_check";`);
    this.addSql(check(KINDS));
    this.addSql(`drop table if exists "wallet_freeze" cascade;`);
  }
}
