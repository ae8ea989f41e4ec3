import { Migration } from '@mikro-orm/migrations';

/**
 * Tokens on chain: transaction intents (`chain_transaction`), the one writer of each agent key
 * and its nonces (`chain_signer`), the gateway's per-chain contracts (`chain_setup`), a token's
 * identity registry, and a wallet's ONCHAINID identity.
 */
export class Migration20261124233200 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "chain_transaction" (
      "id" bigserial primary key, "chain_id" text not null, "from_address" text not null, "nonce" bigint null,
      "purpose" text not null, "order_id" text null, "wallet_id" bigint null, "to_address" text null, "data" text not null,
      "gas_limit" text null, "max_fee_per_gas" text null, "max_priority_fee_per_gas" text null, "raw_tx" text null, "hash" text null,
      "hashes" jsonb not null default '[]', "status" text check ("status" in ('queued', 'signed', 'sent', 'mined', 'confirmed', 'reverted', 'failed')) not null default 'queued',
      "confirmations" int not null default 0, "required_confirmations" int not null, "block_number" bigint null, "block_hash" text null, "gas_used" text null,
      "contract_address" text null, "revert_reason" text null, "last_error" text null, "sent_at" timestamptz(3) null,
      "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null);`);
    this.addSql(`create index "chain_transaction_status_id_index" on "chain_transaction" ("status", "id");`);
    this.addSql(`create index "chain_transaction_wallet_id_index" on "chain_transaction" ("wallet_id");`);
    this.addSql(`create unique index "chain_transaction_one_settlement_per_order" on "chain_transaction" ("order_id") where "order_id" is not null;`);
    this.addSql(`create unique index "chain_transaction_one_nonce" on "chain_transaction" ("chain_id", "from_address", "nonce") where "nonce" is not null;`);
    this.addSql(`create table "chain_signer" ("chain_id" text not null, "address" text not null, "next_nonce" bigint not null, "lease_owner" text null, "lease_until" timestamptz(3) null, primary key ("chain_id", "address"));`);
    this.addSql(`create table "chain_setup" ("chain_id" text not null primary key, "agent_address" text not null, "trex_authority" text not null, "identity_authority" text not null, "claim_issuer" text not null, "identity_storage" text not null, "created_at" timestamptz(3) not null);`);
    this.addSql(`alter table "token" add column "identity_registry" text null, add column "identity_storage" text null;`);
    this.addSql(`alter table "investor_wallet" add column "onchain_identity" text null, add column "chain_error" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "investor_wallet" drop column "onchain_identity", drop column "chain_error";`);
    this.addSql(`alter table "token" drop column "identity_registry", drop column "identity_storage";`);
    this.addSql(`drop table "chain_setup";`);
    this.addSql(`drop table "chain_signer";`);
    this.addSql(`drop table "chain_transaction";`);
  }
}
