import { Migration } from '@mikro-orm/migrations';

export class Migration20261121174550 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "api_credential" ("id" bigserial primary key, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, "created_by" text not null, "updated_by" text not null, "distributor_id" text not null, "api_key" text not null, "secret_hash" text not null, "revoked_at" timestamptz(3) null);`);
    this.addSql(`create index "api_credential_distributor_id_index" on "api_credential" ("distributor_id");`);
    this.addSql(`alter table "api_credential" add constraint "api_credential_api_key_unique" unique ("api_key");`);

    this.addSql(`create table "token_family" ("id" text not null, "credential_id" bigint not null, "created_at" timestamptz(3) not null, "revoked_at" timestamptz(3) null, "revoked_reason" text null, constraint "token_family_pkey" primary key ("id"));`);
    this.addSql(`create index "token_family_credential_id_index" on "token_family" ("credential_id");`);

    this.addSql(`create table "refresh_token" ("id" bigserial primary key, "token_hash" text not null, "family_id" text not null, "issued_at" timestamptz(3) not null, "expires_at" timestamptz(3) not null, "used_at" timestamptz(3) null);`);
    this.addSql(`alter table "refresh_token" add constraint "refresh_token_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "refresh_token_family_id_index" on "refresh_token" ("family_id");`);

    this.addSql(`alter table "api_credential" add constraint "api_credential_distributor_id_foreign" foreign key ("distributor_id") references "distributor" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "token_family" add constraint "token_family_credential_id_foreign" foreign key ("credential_id") references "api_credential" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "refresh_token" add constraint "refresh_token_family_id_foreign" foreign key ("family_id") references "token_family" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "token_family" drop constraint "token_family_credential_id_foreign";`);

    this.addSql(`alter table "refresh_token" drop constraint "refresh_token_family_id_foreign";`);

    this.addSql(`drop table if exists "api_credential" cascade;`);

    this.addSql(`drop table if exists "token_family" cascade;`);

    this.addSql(`drop table if exists "refresh_token" cascade;`);
  }

}
