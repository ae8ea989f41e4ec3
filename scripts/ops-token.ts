/**
 * Issues an ops-console bearer token: `npm run ops-token -- <name>`. The token is printed once;
 * only its hash is stored. `--revoke <name>` revokes every token of that name.
 * (The embedded database can be opened by one process at a time: stop the gateway first.)
 */
import 'reflect-metadata';
import { systemClock } from '../src/common/clock';
import { runInScope } from '../src/common/request-scope';
import { loadConfig } from '../src/config';
import { migrate, openDatabase } from '../src/db/orm';
import { OpsTokenService } from '../src/modules/auth/ops-token.service';

async function main() {
  const args = process.argv.slice(2);
  const revoke = args[0] === '--revoke';
  const name = revoke ? args[1] : args[0];
  if (!name) throw new Error('usage: npm run ops-token -- <name>   |   npm run ops-token -- --revoke <name>');
  const config = loadConfig();
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: 2, clock: systemClock });
  try {
    await migrate(db.orm, config.databaseUrl);
    const tokens = new OpsTokenService(systemClock);
    const em = db.orm.em.fork();
    if (revoke) {
      console.log(`revoked ${await tokens.revokeByName(em, name)} token(s) named ${name}`);
    } else {
      const token = await runInScope({ actor: 'cli' }, () => tokens.issue(em, name));
      console.log(`ops token for ${name} (shown once): ${token}`);
    }
  } finally {
    await db.close();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
