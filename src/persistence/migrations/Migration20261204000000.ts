import { Migration } from '@mikro-orm/migrations';

/**
 * The console's sessions (src/modules/auth/console-session.service.ts): an ops token exchanged once
 * for a short-lived HttpOnly cookie. A session belongs to the token it came from and ends with it.
 */
export class Migration20261204000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "ops_console_session" ("id" bigserial primary key, "token_id" bigint not null, "secret_hash" text not null, "created_at" timestamptz(3) not null, "expires_at" timestamptz(3) not null, "ended_at" timestamptz(3) null);`,
    );
    this.addSql(`alter table "ops_console_session" add constraint "ops_console_session_secret_hash_unique" unique ("secret_hash");`);
    this.addSql(
      `alter table "ops_console_session" add constraint "ops_console_session_token_id_foreign" foreign key ("token_id") references "ops_token" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(`create index "ops_console_session_token_id_index" on "ops_console_session" ("token_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "ops_console_session" cascade;`);
  }
}
