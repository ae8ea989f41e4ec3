import { Migration } from '@mikro-orm/migrations';

/** Income distributions (issue 31 item 1): a share class's structured policy, distributions and each holder's entitlement. */
export class Migration20261127200000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "distribution_policy" (
      "share_class_id" text not null primary key references "share_class" ("id") on delete restrict,
      "treatment" text not null check ("treatment" in ('accumulating', 'distributing')),
      "payment" text null check ("payment" in ('reinvest', 'cash')),
      "updated_at" timestamptz(3) not null,
      "updated_by" text not null,
      constraint "distribution_policy_pays_when_distributing" check (("treatment" = 'distributing') = ("payment" is not null)));`);
    this.addSql(`create table "distribution" (
      "id" bigserial primary key,
      "share_class_id" text not null references "share_class" ("id") on delete restrict,
      "period_from" text not null, "period_to" text not null, "pay_date" text not null,
      "rate_per_token_per_day" numeric null, "amount_per_token" numeric null,
      "payment" text not null check ("payment" in ('reinvest', 'cash')),
      "currency" text not null, "time_zone" text not null,
      "status" text not null check ("status" in ('declared', 'paying', 'paid')),
      "gross" numeric not null, "paid" numeric null, "residue" numeric null, "nav" numeric null, "tokens" numeric null,
      "declared_at" timestamptz(3) not null, "declared_by" text not null, "paid_at" timestamptz(3) null,
      constraint "distribution_basis_check" check (("rate_per_token_per_day" is null) <> ("amount_per_token" is null)));`);
    this.addSql(`create index "distribution_share_class_id_pay_date_index" on "distribution" ("share_class_id", "pay_date");`);
    this.addSql(`create table "distribution_entitlement" (
      "id" bigserial primary key,
      "distribution_id" bigint not null references "distribution" ("id") on delete restrict,
      "investor_id" text not null references "investor" ("id") on delete restrict,
      "distributor_id" text not null,
      "token_days" numeric not null, "gross" numeric not null, "amount" numeric null, "tokens" numeric null,
      "wallet" text null,
      "status" text not null check ("status" in ('pending', 'sending', 'paid', 'failed')),
      "transaction_id" bigint null, "transfer_hash" text null, "failure_reason" text null, "paid_at" timestamptz(3) null,
      constraint "distribution_entitlement_distribution_id_investor_id_unique" unique ("distribution_id", "investor_id"));`);
    this.addSql(`create index "distribution_entitlement_investor_id_index" on "distribution_entitlement" ("investor_id");`);
    this.addSql(`create index "distribution_entitlement_transaction_id_index" on "distribution_entitlement" ("transaction_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "distribution_entitlement";`);
    this.addSql(`drop table if exists "distribution";`);
    this.addSql(`drop table if exists "distribution_policy";`);
  }
}
