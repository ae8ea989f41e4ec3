import { MikroORM } from '@mikro-orm/postgresql';
import type { Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { Client } from 'pg';
import type { Clock } from '../common/clock';
import { AuditSubscriber } from '../persistence/audit.subscriber';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../persistence/embedded-postgres';
import { ENTITIES } from './entities';
import { MIGRATIONS } from '../persistence/migrations';
import { ConfigError } from '../config';

export interface DatabaseOptions {
  /** PostgreSQL URL; null starts the embedded PostgreSQL. */
  databaseUrl: string | null;
  /** Folder of the embedded database; null keeps it in memory. */
  dataDir: string | null;
  poolMax: number;
  clock: Clock;
}

export interface Database {
  orm: MikroORM;
  embedded: boolean;
  close(): Promise<void>;
}

/** ORM settings shared by the app and the migration generator. */
export function ormOptions(clock: Clock): Options {
  return {
    entities: ENTITIES,
    subscribers: [new AuditSubscriber(clock)],
    extensions: [Migrator],
    migrations: { migrationsList: MIGRATIONS, snapshot: false, transactional: true, allOrNothing: true, silent: true },
    // MikroORM creates a database it does not find: a mistyped DATABASE_URL would get an empty
    // database, migrated, instead of a refusal. The gateway never creates one (requireDatabase).
    ensureDatabase: false,
    // Every request and job forks its own EntityManager; the global one is never used for work.
    allowGlobalContext: false,
    forceUtcTimezone: true,
    debug: false,
  };
}

/** How the gateway's connections name themselves to a PostgreSQL server unless its URL says otherwise. */
export const APPLICATION_NAME = 'fund-distribution-gateway';
/** How long opening a connection to a PostgreSQL server may take. */
export const CONNECT_TIMEOUT_MS = 5_000;

/**
 * A database named by DATABASE_URL that does not exist is a mistake (a mistyped name, the wrong
 * server): the start is refused, naming it, and nothing is created. Other failures to connect are
 * left to the caller as they are.
 */
export async function requireDatabase(databaseUrl: string): Promise<void> {
  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  try {
    await client.connect();
  } catch (err) {
    if ((err as { code?: string }).code !== '3D000') throw err;
    const url = new URL(databaseUrl);
    const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
    throw new ConfigError(
      `Invalid configuration:\n  - DATABASE_URL names database "${name}" on ${url.hostname}:${url.port || '5432'}, which does not exist: the gateway never creates a database (create it, e.g. createdb "${name}", or correct the name)`,
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  let embedded: EmbeddedPostgres | null = null;
  let connection: Options;
  if (options.databaseUrl) {
    await requireDatabase(options.databaseUrl);
    // MikroORM reads host, port, user and database from the URL and drops its parameters: the
    // pool's connections carry the URL's application_name (as the LISTEN ones, which pg opens
    // from the URL, do), so an operator tells the gateway's backends apart in pg_stat_activity.
    const applicationName = new URL(options.databaseUrl).searchParams.get('application_name') ?? APPLICATION_NAME;
    // A server that does not answer at all (a dropped route, a stopped VM) fails a new connection
    // after CONNECT_TIMEOUT_MS — a 503 — instead of holding the request for the TCP timeout.
    connection = {
      clientUrl: options.databaseUrl,
      driverOptions: { connection: { application_name: applicationName, connectionTimeoutMillis: CONNECT_TIMEOUT_MS } },
    };
  } else {
    embedded = await startEmbeddedPostgres(options.dataDir, options.poolMax);
    connection = { ...embedded.connection };
  }
  const orm = await MikroORM.init({
    ...ormOptions(options.clock),
    ...connection,
    pool: { min: 0, max: options.poolMax },
  }).catch(async (err) => {
    await embedded?.stop();
    throw err;
  });
  return {
    orm,
    embedded: embedded !== null,
    async close() {
      await orm.close(true);
      await embedded?.stop();
    },
  };
}

/**
 * Applies pending migrations. On a PostgreSQL server an advisory lock, held on a connection of
 * its own, makes concurrent starts of several instances take turns instead of racing on the same
 * DDL; an embedded database can only be opened by one process, so it needs none.
 */
export async function migrate(orm: MikroORM, databaseUrl: string | null): Promise<string[]> {
  const lock = databaseUrl ? new Client({ connectionString: databaseUrl }) : null;
  try {
    if (lock) {
      await lock.connect();
      await lock.query('select pg_advisory_lock(734100001)');
    }
    const done = await orm.migrator.up();
    return done.map((m) => m.name);
  } finally {
    await lock?.end();
  }
}
