import { Access } from '../src/access/access';
/**
 * Surface-O credentials from the command line (ops onboarding):
 *   npm run api-credential -- issue <DT######|PT######>   key and secret, the secret shown once
 *   npm run api-credential -- rotate <apiKey>             a new pair; the old one and its tokens stop working
 *   npm run api-credential -- revoke <apiKey>             the key and its tokens stop working
 *   npm run api-credential -- list <DT######|PT######>    keys (never secrets)
 * (The embedded database can be opened by one process at a time: stop the gateway first.)
 */
import 'reflect-metadata';
import { systemClock } from '../src/common/clock';
import { DomainError } from '../src/common/errors';
import { runInScope } from '../src/common/request-scope';
import { loadConfig } from '../src/config';
import { migrate, openDatabase } from '../src/boot/orm';
import { ApiCredentialService } from '../src/modules/auth/api-credential.service';

const USAGE = 'usage: npm run api-credential -- issue <distributorId> | rotate <apiKey> | revoke <apiKey> | list <distributorId>';

async function main() {
  const [command, arg] = process.argv.slice(2);
  if (!command || !arg || !['issue', 'rotate', 'revoke', 'list'].includes(command)) throw new Error(USAGE);
  const config = loadConfig();
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: 2, clock: systemClock });
  try {
    await migrate(db.orm, config.databaseUrl);
    const credentials = new ApiCredentialService(systemClock);
    const ctx = { em: db.orm.em.fork(), access: Access.ops('cli') };
    await runInScope({ actor: process.env.USER ? `cli:${process.env.USER}` : 'cli' }, async () => {
      if (command === 'issue' || command === 'rotate') {
        const issued = command === 'issue' ? await credentials.issue(ctx, arg) : await credentials.rotate(ctx, arg);
        console.log(`distributorId ${issued.distributorId} (surface O: ${issued.partnerId})`);
        console.log(`x-api-key:    ${issued.apiKey}`);
        console.log(`x-api-secret: ${issued.apiSecret}   (shown once; only its hash is stored)`);
      } else if (command === 'revoke') {
        await credentials.revoke(ctx, arg);
        console.log(`revoked ${arg}; its access and refresh tokens no longer work`);
      } else {
        for (const c of await credentials.list(ctx, arg)) {
          console.log(`${c.apiKey}  created ${c.createdAt.toISOString()} by ${c.createdBy}${c.revokedAt ? `  revoked ${c.revokedAt.toISOString()}` : ''}`);
        }
      }
    });
  } finally {
    await db.close();
  }
}

main().catch((err) => {
  console.error(err instanceof DomainError || err instanceof Error ? err.message : err);
  process.exit(1);
});
