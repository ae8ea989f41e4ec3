import { Migration } from '@mikro-orm/migrations';

/**
 * The actor is the credential: beside every `created_by`/`updated_by`/`by` (the caller's
 * `x-actor` note, or the door's default, as the description shows them) the principal that
 * authenticated; chain intents name the principal that wrote them. Null on older rows.
 */
const AUDITED = [
  'webhook', 'webhook_delivery', 'webhook_attempt', 'investor', 'investor_grant', 'investor_wallet', 'api_credential', 'token_family', 'refresh_token',
  'distributor', 'distributor_host', 'distributor_wallet', 'share_class_grant', 'fund', 'order', 'token', 'dealing_calendar', 'issuer', 'nav',
  'holding', 'holding_lot', 'holding_movement', 'share_class',
];

export class Migration20261126200100 extends Migration {
  override async up(): Promise<void> {
    for (const t of AUDITED) this.addSql(`alter table "${t}" add column if not exists "created_by_principal" text null, add column if not exists "updated_by_principal" text null;`);
    this.addSql(`alter table "order_status_entry" add column "by_principal" text null;`);
    this.addSql(`alter table "chain_transaction" add column "requested_by" text null;`);
  }

  override async down(): Promise<void> {
    for (const t of AUDITED) this.addSql(`alter table "${t}" drop column if exists "created_by_principal", drop column if exists "updated_by_principal";`);
    this.addSql(`alter table "order_status_entry" drop column if exists "by_principal";`);
    this.addSql(`alter table "chain_transaction" drop column if exists "requested_by";`);
  }
}
