import { Migration } from '@mikro-orm/migrations';

/**
 * A transfer between holders that the chain follower saw reach an investor the share class's rule
 * set refuses (src/modules/chain/follower.ts): the rule it breaks, for ops.
 */
export class Migration20261205020000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "chain_movement" add column "ineligibility" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "chain_movement" drop column "ineligibility";`);
  }
}
