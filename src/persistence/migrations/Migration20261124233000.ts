import { Migration } from '@mikro-orm/migrations';

/**
 * Binding a surface-R host to what a caller cannot type: the source ranges it is reached from
 * and the SHA-256 fingerprint of the client certificate it presents (HostBinding).
 */
export class Migration20261124233000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "distributor_host" add column "source_ranges" jsonb not null default '[]', add column "client_cert_sha256" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "distributor_host" drop column "source_ranges", drop column "client_cert_sha256";`);
  }

}
