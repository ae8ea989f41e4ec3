/**
 * Break-glass access to ops principals, for whoever holds the database (which is the root of
 * trust: with it one could write any row anyway). It bootstraps the first admins of a new
 * installation and recovers when no two admins are left to approve a request; every use is
 * a person with database access acting alone, so it is the exception, not the way of work (the
 * gateway's own doors put four eyes on principals: docs/approvals.md#principals).
 *
 * - `npm run ops-token -- <name> --role operator --role approver` creates a NEW principal (a name
 *   that exists, case-folded, is refused) with its first token;
 * - `-- --rotate <name> [--role …]` (also `--reset`): the principal (created if missing) gets the
 *   roles given (else keeps its own), every token of it is revoked and one new token issued;
 * - `-- --revoke <name>` revokes every token of that principal.
 * Roles: viewer, operator, approver, admin; at least one. A token is printed once with its expiry
 * (OPS_TOKEN_TTL_SECONDS); only its hash is stored. Running gateways on the same PostgreSQL server
 * refuse a revoked token at once (NOTIFY). (The embedded database can be opened by one process at
 * a time: stop the gateway first.)
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
  const mode = args[0] === '--revoke' ? '--revoke' : args[0] === '--rotate' || args[0] === '--reset' ? '--rotate' : null;
  const name = mode ? args[1] : args[0];
  const usage =
    'usage: npm run ops-token -- <name> --role <viewer|operator|approver|admin> [--role …]   |   -- --rotate <name> [--role …]   |   -- --revoke <name>   (break-glass: docs/approvals.md)';
  if (!name || (!mode && !roles.length)) throw new Error(usage);
  const config = loadConfig();
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: 2, clock: systemClock });
  try {
    await migrate(db.orm, config.databaseUrl);
    const tokens = new OpsTokenService(systemClock, config.opsTokenTtlSeconds);
    const em = db.orm.em.fork();
    if (mode === '--revoke') {
      console.log(`revoked ${await tokens.revokeByName(em, name)} token(s) of ${name}`);
    } else {
      const issued = await runInScope({ actor: 'cli' }, () =>
        mode === '--rotate' ? tokens.bootstrap(em, name, roles.length ? roles : undefined, 'cli') : tokens.issue(em, name, roles, 'cli'),
      );
      console.log(
        `ops token for ${issued.name} with roles ${issued.roles.join(', ')} (shown once, valid until ${issued.expiresAt.toISOString()}): ${issued.token}`,
      );
    }
  } finally {
    await db.close();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
