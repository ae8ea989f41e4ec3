/**
 * Issues an ops-console bearer token: `npm run ops-token -- <name> --role operator --role approver`
 * (roles: viewer, operator, approver, admin; at least one). The token is printed once
 * with its expiry (OPS_TOKEN_TTL_SECONDS); only its hash is stored. `--rotate <name>` issues a new
 * one (with the given roles, else the name's current ones) and revokes every other of that name; `--revoke <name>` revokes every token of that name.
 * Running gateways on the same PostgreSQL server refuse a revoked token at once (NOTIFY).
 * (The embedded database can be opened by one process at a time: stop the gateway first.)
 */
import 'reflect-metadata';
import { systemClock } from '../src/common/clock';
import { runInScope } from '../src/common/request-scope';
import { loadConfig } from '../src/config';
import { migrate, openDatabase } from '../src/boot/orm';
import { OpsTokenService } from '../src/modules/auth/ops-token.service';

async function main() {
  const argv = process.argv.slice(2);
  const roles: string[] = [];
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--role') roles.push(argv[++i] ?? '');
    else args.push(argv[i]);
  }
  const mode = args[0] === '--revoke' || args[0] === '--rotate' ? args[0] : null;
  const name = mode ? args[1] : args[0];
  const usage =
    'usage: npm run ops-token -- <name> --role <viewer|operator|approver|admin> [--role …]   |   -- --rotate <name> [--role …]   |   -- --revoke <name>';
  if (!name || (!mode && !roles.length)) throw new Error(usage);
  const config = loadConfig();
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: 2, clock: systemClock });
  try {
    await migrate(db.orm, config.databaseUrl);
    const tokens = new OpsTokenService(systemClock, config.opsTokenTtlSeconds);
    const em = db.orm.em.fork();
    if (mode === '--revoke') {
      console.log(`revoked ${await tokens.revokeByName(em, name)} token(s) named ${name}`);
    } else {
      const issued = await runInScope({ actor: 'cli' }, () =>
        mode === '--rotate' ? tokens.rotate(em, name, roles.length ? roles : undefined) : tokens.issue(em, name, roles),
      );
      console.log(`ops token for ${name} with roles ${issued.roles.join(', ')} (shown once, valid until ${issued.expiresAt.toISOString()}): ${issued.token}`);
    }
  } finally {
    await db.close();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
