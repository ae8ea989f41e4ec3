import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
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

/** Connections the socket server takes beyond the pool's: a script or a test's own client. */
const SPARE_CONNECTIONS = 4;

/**
 * `dataDir` null keeps the database in memory (tests). The socket server refuses connections
 * beyond its limit ("Too many connections", which the pool sees as a broken socket), so it takes
 * as many as the pool that will use it may open.
 */
export async function startEmbeddedPostgres(dataDir: string | null, poolMax: number): Promise<EmbeddedPostgres> {
  const maxConnections = poolMax + SPARE_CONNECTIONS;
  if (dataDir) mkdirSync(resolve(dataDir), { recursive: true, mode: 0o700 });
  const db = await PGlite.create(dataDir ? resolve(dataDir) : undefined);
  if (dataDir) ownerOnly(resolve(dataDir));
  // A short socket path: Unix socket paths are limited to about 107 bytes.
  const socketDir = mkdtempSync(join(tmpdir(), 'gw-pg-'));
  const server = new PGLiteSocketServer({ db, path: join(socketDir, '.s.PGSQL.5432'), maxConnections });
  keepExchangesTogether(server, db);
  await server.start();
  return {
    connection: { host: socketDir, port: 5432, user: 'postgres', dbName: 'postgres' },
    async stop() {
      await server.stop();
      await db.close();
      if (dataDir) ownerOnly(resolve(dataDir));
      rmSync(socketDir, { recursive: true, force: true });
    },
  };
}

/**
 * PGlite's file system creates the database's files with mode 0666 whatever the umask: the folder
 * is made 0700 (no one else may enter it, so files added while it runs stay the owner's) and
 * every file in it 0600, at open and at close.
 */
function ownerOnly(path: string): void {
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const at = join(path, entry.name);
    if (entry.isDirectory()) ownerOnly(at);
    else if (entry.isFile()) chmodSync(at, 0o600);
  }
  chmodSync(path, 0o700);
}

/** A protocol message waiting in the socket server's queue (pglite-socket 0.2.17's internal shape). */
interface QueuedMessage {
  handlerId: number;
  message: Uint8Array;
  onData(data: Uint8Array): void;
  resolve(bytes: number): void;
  reject(err: unknown): void;
}

interface QueryQueue {
  queue: QueuedMessage[];
  processing: boolean;
  lastHandlerId: number | null;
  processQueue(): Promise<void>;
  clearQueueForHandler(handlerId: number): void;
}

/** Message types that end an exchange: Sync (extended protocol), simple Query, Terminate; 0 is a startup message. */
const EXCHANGE_ENDS = new Set([0x53, 0x51, 0x58, 0]);

/**
 * pglite-socket 0.2.17 queues each wire-protocol message on its own and only keeps connections
 * apart inside a transaction. Outside one, the Parse/Bind/Execute/Sync of two connections
 * interleave, and a query runs another's statement or fails with "unnamed prepared statement
 * does not exist" (electric-sql/pglite#1046). A failed message also left its queue stuck for good.
 * This replaces its queue loop with one that serves a connection's messages together until the
 * exchange ends (Sync), as well as for a whole transaction, and recovers from a failure.
 */
function keepExchangesTogether(server: PGLiteSocketServer, db: PGlite): void {
  const queue = (server as unknown as { queryQueue: QueryQueue }).queryQueue;
  let pinned: number | null = null;
  queue.processQueue = async function processQueue(this: QueryQueue) {
    if (this.processing) return;
    this.processing = true;
    try {
      while (this.queue.length > 0) {
        const owner = pinned ?? (db.isInTransaction() ? this.lastHandlerId : null);
        const index = owner === null ? 0 : this.queue.findIndex((m) => m.handlerId === owner);
        if (index === -1) return; // the owner's next message has not arrived yet: it re-runs this loop
        const [item] = this.queue.splice(index, 1);
        let bytes = 0;
        try {
          await db.runExclusive(() =>
            db.execProtocolRawStream(item.message, {
              onRawData: (data: Uint8Array) => {
                bytes += data.length;
                item.onData(data);
              },
            }),
          );
        } catch (err) {
          pinned = null;
          item.reject(err);
          continue;
        }
        this.lastHandlerId = item.handlerId;
        pinned = EXCHANGE_ENDS.has(item.message[0]) ? null : item.handlerId;
        item.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  };
  const clear = queue.clearQueueForHandler.bind(queue);
  queue.clearQueueForHandler = (handlerId: number) => {
    if (pinned === handlerId) pinned = null;
    clear(handlerId);
    void queue.processQueue();
  };
}
