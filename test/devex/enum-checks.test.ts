import { systemClock } from '../../src/common/clock';
import { openTestDatabase, type TestDatabase } from '../support/database';

/**
 * Every enum of every entity is a check constraint of its column, and the migrations must keep the
 * two equal: a value the code writes and the database refuses fails at run time only. Two
 * migrations written side by side each listed the request kinds they knew, and the later one
 * dropped the other's (Migration20261130090000). Read from the migrated database, for every enum
 * column of every entity.
 */
describe('Enum columns and their check constraints', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase(systemClock, 2);
  });
  afterAll(() => db.close());

  it('every value of every entity enum is allowed by its column check, and the check allows nothing else', async () => {
    const checks = await db.orm.em
      .fork()
      .execute<{ table: string; def: string }[]>(
        `select c.conrelid::regclass::text as "table", pg_get_constraintdef(c.oid) as def from pg_constraint c where c.contype = 'c' and c.connamespace = 'public'::regnamespace`,
      );
    const problems: string[] = [];
    let columns = 0;
    for (const meta of Object.values(db.orm.getMetadata().getAll())) {
      if (!meta.tableName || meta.embeddable) continue;
      for (const prop of Object.values(meta.properties)) {
        if (!prop.enum || !Array.isArray(prop.items) || !prop.fieldNames?.length) continue;
        const column = prop.fieldNames[0];
        const table = meta.tableName.replace(/"/g, '');
        const def = checks.find(
          (c) =>
            c.table.replace(/"/g, '') === table &&
            new RegExp(`\\(\\(?"?${column}"?\\)?(::text)? = ANY|"?${column}"?\\)?::text\\)? = ANY|\\b${column}\\b.* IN `, 'i').test(c.def),
        )?.def;
        columns++;
        if (!def) {
          problems.push(`${table}.${column}: no check constraint`);
          continue;
        }
        const allowed = [...def.matchAll(/'([^']*)'/g)].map((m) => m[1]).sort();
        const items = prop.items.map(String).sort();
        if (JSON.stringify(allowed) !== JSON.stringify(items))
          problems.push(`${table}.${column}: the check allows [${allowed.join(', ')}], the entity has [${items.join(', ')}]`);
      }
    }
    expect(columns).toBeGreaterThan(10);
    expect(problems).toEqual([]);
  });
});
