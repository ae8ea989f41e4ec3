import { Migration } from '@mikro-orm/migrations';

/**
 * A chain intent carries the domain's opaque correlation, not an order id (issue 45: the chain is
 * a port): `order_id` becomes `correlation`, an order's settlement reads `order:<id>`, and the
 * one-settlement-per-order index becomes one intent per correlation.
 */
export class Migration20261201000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop index if exists "chain_transaction_one_settlement_per_order";`);
    this.addSql(`alter table "chain_transaction" rename column "order_id" to "correlation";`);
    this.addSql(`update "chain_transaction" set "correlation" = 'order:' || "correlation" where "correlation" is not null;`);
    this.addSql(
      `create unique index "chain_transaction_one_intent_per_correlation" on "chain_transaction" ("correlation") where "correlation" is not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "chain_transaction_one_intent_per_correlation";`);
    this.addSql(
      `update "chain_transaction" set "correlation" = case when "correlation" like 'order:%' then substr("correlation", 7) end where "correlation" is not null;`,
    );
    this.addSql(`alter table "chain_transaction" rename column "correlation" to "order_id";`);
    this.addSql(
      `create unique index "chain_transaction_one_settlement_per_order" on "chain_transaction" ("order_id") where "order_id" is not null;`,
    );
  }
}
