/**
 * Contenders 2 and 3: the real gateway from `createGateway` (src/app.ts) — the REST facade under
 * /api/v1 with its real routes and middleware, and GraphQL at /graphql — in a process of its own
 * so its CPU can be attributed. Configured as in production (APP_ENV=production, logs at warn).
 * Spawned by bench/run.ts; answers `cpu`, `schema` and `stop` over IPC (./control.ts).
 */
import 'reflect-metadata';
import { createGateway } from '../../src/app';
import { systemClock } from '../../src/common/clock';
import { logger } from '../../src/common/logger';
import { productionEnv } from '../production-env';
import { loadConfig } from '../../src/config';
import { MikroORM } from '@mikro-orm/postgresql';
import { openDatabase, ormOptions } from '../../src/boot/orm';
import { gatewaySchema } from '../../src/transports/graphql/schema';
import { installControl } from './control';

async function main() {
  const socket = process.env.BENCH_PG_SOCKET ? JSON.parse(process.env.BENCH_PG_SOCKET) : null;
  // Production takes a database server only: the bench's embedded one is served on a socket, named as pg reads one.
  const socketUrl = socket ? `postgres://${socket.user}@localhost:${socket.port}/${socket.dbName}?host=${encodeURIComponent(socket.host)}` : '';
  const config = loadConfig({
    ...productionEnv(),
    ...process.env,
    DATABASE_URL: process.env.BENCH_DATABASE_URL || socketUrl,
    APP_ENV: process.env.APP_ENV ?? 'production',
  });
  // The embedded PostgreSQL runs in the bench's own process; the gateway reaches it by its socket.
  const db = socket
    ? await MikroORM.init({ ...ormOptions(systemClock), ...socket, pool: { min: 0, max: config.dbPoolMax } }).then((orm) => ({
        orm,
        close: () => orm.close(true),
      }))
    : await openDatabase({ databaseUrl: config.databaseUrl, dataDir: null, poolMax: config.dbPoolMax, clock: systemClock });
  const gateway = await createGateway({ config, orm: db.orm, clock: systemClock });
  const port = await gateway.listen(0, '127.0.0.1');
  installControl(async () => {
    // Requests still queued when the bench stops fail as the pool closes: nothing to report.
    logger.level = 'silent';
    gateway.server.closeAllConnections();
    await gateway.close();
    await db.close();
  }, gatewaySchema);
  process.send?.({ type: 'ready', port });
}

main().catch((err) => {
  process.stderr.write(`gateway: ${(err as Error).stack}\n`);
  process.exit(1);
});
