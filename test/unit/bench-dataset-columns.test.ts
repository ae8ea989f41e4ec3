import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import { ormOptions } from '../../src/boot/orm';
import { systemClock } from '../../src/common/clock';

/**
 * The bench's dataset (bench/dataset.ts) writes its rows by hand, `INSERT … SELECT
 * generate_series`, for speed. Each statement's table and columns are checked here against the
 * entities' metadata, so a renamed or dropped column fails in `npm test`, not in a bench run.
 */
describe('The bench dataset', () => {
  let orm: MikroORM;
  beforeAll(async () => {
    orm = await MikroORM.init({ ...ormOptions(systemClock), clientUrl: 'postgres://nobody@127.0.0.1:1/none', connect: false });
  });
  afterAll(() => orm.close());

  it("inserts only into the entities' tables and columns", () => {
    const columns = new Map<string, Set<string>>();
    for (const meta of Object.values(orm.getMetadata().getAll())) {
      const names = columns.get(meta.tableName) ?? new Set<string>();
      for (const prop of Object.values(meta.properties)) for (const field of prop.fieldNames ?? []) names.add(field);
      columns.set(meta.tableName, names);
    }
    const source = readFileSync(join(__dirname, '../../bench/dataset.ts'), 'utf8');
    const unquoted = (name: string) => name.trim().replace(/^"|"$/g, '');
    const inserts = [...source.matchAll(/insert into\s+("?\w+"?)\s*\(([^)]*)\)/gi)].map((m) => ({
      table: unquoted(m[1]),
      columns: m[2].split(',').map(unquoted),
    }));
    expect(inserts.length).toBeGreaterThanOrEqual(15);
    const unknown = inserts.flatMap(({ table, columns: used }) => {
      const known = columns.get(table);
      if (!known) return [`table ${table}`];
      return used.filter((c) => !known.has(c)).map((c) => `${table}.${c}`);
    });
    expect(unknown).toEqual([]);
  });
});
