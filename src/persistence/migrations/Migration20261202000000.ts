import { Migration } from '@mikro-orm/migrations';

/**
 * Compliance where the token is (issue 46): the T-REX compliance modules the gateway deployed on
 * each chain (one of each, shared by its tokens' compliances), and the sequences of intents that
 * carry a rule change to a token's modules one call after another.
 */
export class Migration20261202000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "chain_compliance_module" ("chain_id" text not null, "name" text not null, "address" text not null,
      "created_at" timestamptz not null, constraint "chain_compliance_module_pkey" primary key ("chain_id", "name"));`);
    this.addSql(`create table "chain_intent_sequence" ("id" bigserial primary key, "chain_id" text not null, "purpose" text not null,
      "subject" text not null, "steps" jsonb not null, "current" int not null default 0, "current_tx_id" bigint null,
      "status" text check ("status" in ('running', 'done', 'failed')) not null default 'running', "error" text null,
      "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "chain_intent_sequence_current_tx_id_index" on "chain_intent_sequence" ("current_tx_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "chain_intent_sequence";`);
    this.addSql(`drop table if exists "chain_compliance_module";`);
  }
}
