/**
 * Issues an ops-console bearer token: `npm run ops-token -- <name>`. The token is printed once
 * with its expiry (OPS_TOKEN_TTL_SECONDS); only its hash is stored. `--rotate <name>` issues a new
 * one and revokes every other of that name; `--revoke <name>` revokes every token of that name.
 * Running gateways on the same PostgreSQL server refuse a revoked token at once (NOTIFY).
 * (The embedded database can be opened by one process at a time: stop the gateway first.)
 */
import 'reflect-metadata';
import { systemClock } from '../src/common/clock';
import { runInScope } from '../src/common/request-scope';
import { loadConfig } from '../src/config';
import { migrate, openDatabase } from '../src/persistence/orm';
import { OpsTokenService } from '../src/modules/auth/ops-token.service';

async function main() {
  const args = process.argv.slice(2);
  const mode = args[0] === '--revoke' || args[0] === '--rotate' ? args[0] : null;
  const name = mode ? args[1] : args[0];
  if (!name) throw new Error('usage: npm run ops-token -- <name>   |   -- --rotate <name>   |   -- --revoke <name>');
  const config = loadConfig();
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: 2, clock: systemClock });
  try {
    await migrate(db.orm, config.databaseUrl);
    const tokens = new OpsTokenService(systemClock, config.opsTokenTtlSeconds);
    const em = db.orm.em.fork();
    if (mode === '--revoke') {
      console.log(`revoked ${await tokens.revokeByName(em, name)} token(s) named ${name}`);
    } else {
      const issued = await runInScope({ actor: 'cli' }, () => (mode === '--rotate' ? tokens.rotate(em, name) : tokens.issue(em, name)));
      console.log(`ops token for ${name} (shown once, valid until ${issued.expiresAt.toISOString()}): ${issued.token}`);
    }
  } finally {
    await db.close();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
