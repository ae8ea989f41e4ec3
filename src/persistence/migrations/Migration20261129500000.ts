import { Migration } from '@mikro-orm/migrations';

/**
 * A dealing week per share class: the ISO weekdays it deals on (1 Monday … 7 Sunday), Monday to
 * Friday unless ops say otherwise, so a daily class deals (and its orders settle) on a weekend.
 * The check keeps it a non-empty list of weekdays whatever writes it.
 */
export class Migration20261129500000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "share_class" add column "dealing_weekdays" jsonb not null default '[1,2,3,4,5]';`);
    this.addSql(`alter table "share_class" add constraint "share_class_dealing_weekdays_check" check (
      jsonb_typeof("dealing_weekdays") = 'array' and jsonb_array_length("dealing_weekdays") between 1 and 7
      and "dealing_weekdays" <@ '[1,2,3,4,5,6,7]'::jsonb);`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "share_class" drop constraint "share_class_dealing_weekdays_check";`);
    this.addSql(`alter table "share_class" drop column "dealing_weekdays";`);
  }
}
