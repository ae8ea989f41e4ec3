import { Client } from 'pg';
import { MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../src/common/clock';
import { ormOptions, migrate } from '../../src/boot/orm';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/persistence/embedded-postgres';

/**
 * The database a test file runs against. With `DATABASE_URL` set: a database of its own per jest
 * worker on that server (`<its database>_w<worker>`) (created on first use, migrated, emptied between tests). Without it: the
 * embedded PostgreSQL, in memory, one per test file.
 */
export interface TestDatabase {
  orm: MikroORM;
  /** URL of the worker's database, or null when embedded. */
  url: string | null;
  truncate(): Promise<void>;
  close(): Promise<void>;
}

export const serverUrl = (): string | null => process.env.DATABASE_URL?.trim() || null;

/** `<database of DATABASE_URL>_w<jest worker>`: runs against different databases never meet. */
async function ensureWorkerDatabase(adminUrl: string): Promise<string> {
  const base = new URL(adminUrl).pathname.replace(/^\//, '') || 'postgres';
  const name = `${base}_w${process.env.JEST_WORKER_ID ?? '0'}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (!exists.rowCount) {
      await admin.query(`create database "${name}"`).catch((err: { code?: string }) => {
        if (err.code !== '42P04') throw err; // created meanwhile by another worker
      });
    }
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function openTestDatabase(clock: Clock, poolMax = 10): Promise<TestDatabase> {
  const admin = serverUrl();
  let embedded: EmbeddedPostgres | null = null;
  let url: string | null = null;
  let orm: MikroORM;
  if (admin) {
    url = await ensureWorkerDatabase(admin);
    orm = await MikroORM.init({ ...ormOptions(clock), clientUrl: url, pool: { min: 0, max: poolMax } });
  } else {
    embedded = await startEmbeddedPostgres(null, poolMax);
    orm = await MikroORM.init({ ...ormOptions(clock), ...embedded.connection, pool: { min: 0, max: poolMax } });
  }
  await migrate(orm, url);
  const tables = Object.values(orm.getMetadata().getAll())
    .filter((m) => !m.embeddable && m.tableName)
    .map((m) => `"${m.tableName}"`);
  const db: TestDatabase = {
    orm,
    url,
    async truncate() {
      await orm.em.fork().execute(`truncate table ${[...new Set(tables)].join(', ')} restart identity cascade`);
    },
    async close() {
      await orm.close(true);
      await embedded?.stop();
    },
  };
  await db.truncate();
  return db;
}
