import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * PostgreSQL for a machine with nothing installed: PGlite, served over the PostgreSQL wire
 * protocol on a Unix socket so the ordinary MikroORM PostgreSQL driver talks to it. The socket
 * server queues statements and keeps a transaction's statements together across connections.
 */
export interface EmbeddedPostgres {
  /** Connection settings for `pg`: a socket folder as host. */
  connection: { host: string; port: number; user: string; dbName: string };
  stop(): Promise<void>;
}

/** `dataDir` null keeps the database in memory (tests). */
export async function startEmbeddedPostgres(dataDir: string | null, maxConnections = 16): Promise<EmbeddedPostgres> {
  if (dataDir) mkdirSync(resolve(dataDir), { recursive: true });
  const db = await PGlite.create(dataDir ? resolve(dataDir) : undefined);
  // A short socket path: Unix socket paths are limited to about 107 bytes.
  const socketDir = mkdtempSync(join(tmpdir(), 'gw-pg-'));
  const server = new PGLiteSocketServer({ db, path: join(socketDir, '.s.PGSQL.5432'), maxConnections });
  await server.start();
  return {
    connection: { host: socketDir, port: 5432, user: 'postgres', dbName: 'postgres' },
    async stop() {
      await server.stop();
      await db.close();
      rmSync(socketDir, { recursive: true, force: true });
    },
  };
}
