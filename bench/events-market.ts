import { MikroORM } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import { systemClock } from '../src/common/clock';
import { migrate, ormOptions } from '../src/boot/orm';
import { aMarket } from '../test/support/factories';

/**
 * The events benches' database: `<DATABASE_URL's database>_<suffix>`, dropped and created afresh,
 * migrated, with the test factories' market (a share class, two distributors, their investors).
 */
export async function freshEventsMarket(suffix: string, poolMax: number) {
  const admin = process.env.DATABASE_URL;
  if (!admin) throw new Error('DATABASE_URL is required: the benchmark runs against a real PostgreSQL');
  const url = new URL(admin);
  const name = `${url.pathname.replace(/^\//, '') || 'postgres'}_${suffix}`;
  const c = new Client({ connectionString: admin });
  await c.connect();
  await c.query(`drop database if exists "${name}" with (force)`);
  await c.query(`create database "${name}"`);
  await c.end();
  url.pathname = `/${name}`;
  const orm = await MikroORM.init({ ...ormOptions(systemClock), clientUrl: url.toString(), pool: { min: 0, max: poolMax } });
  await migrate(orm, url.toString());
  const market = await aMarket(orm.em.fork(), systemClock.now());
  return { url, orm, market };
}
