import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/*
 * The register changes in one place: `applyMoves` and the row locks of
 * src/modules/holding/holding-moves.ts write the holding tables, and every other path (orders'
 * settlements, adjustments, the chain follower, distributions, the seed) goes through the holding
 * ledger to reach them. A second writer could book a move by rules of its own (a lot without its
 * journal row, a balance without its event), as the set-based copies once could. This reads every
 * source file of the gateway for a statement or an ORM call that writes those tables.
 *
 * The writer's statements are the holding module's queries file (docs/architecture.md, "SQL"):
 * that file holds them, and only the writer calls the functions that run them.
 */

const ROOT = join(__dirname, '..', '..');
const WRITER = 'src/modules/holding/holding-moves.ts';
const WRITER_STATEMENTS = 'src/modules/holding/holding.queries.ts';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    // Migrations create and reshape the tables; they move no tokens.
    if (statSync(path).isDirectory()) return name === 'migrations' || name === 'generated' ? [] : sources(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

const TABLES = ['holding', 'holding_lot', 'holding_movement'];
const ENTITIES = ['Holding', 'HoldingLot', 'HoldingMovement'];
const SQL_WRITE = new RegExp(`\\b(insert\\s+into|update|delete\\s+from|truncate(\\s+table)?|merge\\s+into)\\s+"?(${TABLES.join('|')})"?(\\s|\\(|$)`, 'i');
const ORM_WRITE = new RegExp(
  `(\\.(?:create|nativeInsert|nativeUpdate|nativeDelete|upsert|upsertMany|insert|insertMany|qb|createQueryBuilder)\\(\\s*|\\bnew\\s+)(${ENTITIES.join('|')})\\b`,
);

describe('One writer of the register', () => {
  const files = [...sources(join(ROOT, 'src')), ...sources(join(ROOT, 'rest-compat'))];

  it('reads the whole gateway (the check would pass vacuously on no files)', () => {
    expect(files.map((f) => relative(ROOT, f))).toEqual(expect.arrayContaining([WRITER, 'src/modules/holding/holding-ledger.ts', 'src/boot/seed.ts']));
  });

  it("finds its own patterns: the writer's statements are caught", () => {
    const text = readFileSync(join(ROOT, WRITER_STATEMENTS), 'utf8');
    expect(text).toMatch(SQL_WRITE);
    expect('em.create(HoldingLot, {').toMatch(ORM_WRITE);
    expect('em.nativeUpdate(Holding, {').toMatch(ORM_WRITE);
    expect('em.persist(new HoldingMovement())').toMatch(ORM_WRITE);
    expect('em.find(HoldingLot, {').not.toMatch(ORM_WRITE);
    expect('update "holding_movement" set').toMatch(SQL_WRITE);
    expect('select balance from holding where').not.toMatch(SQL_WRITE);
    expect('update holding_view_cache set').not.toMatch(SQL_WRITE);
  });

  it.each(TABLES)('no file but holding-moves.ts writes the table %s', (table) => {
    const writers = files
      .filter((f) => ![WRITER, WRITER_STATEMENTS].includes(relative(ROOT, f)))
      .filter((f) => {
        const text = readFileSync(f, 'utf8');
        const sql = [...text.matchAll(new RegExp(SQL_WRITE, 'gi'))].some((m) => m[3].toLowerCase() === table);
        const entity = ENTITIES[TABLES.indexOf(table)];
        const orm = [...text.matchAll(new RegExp(ORM_WRITE, 'g'))].some((m) => m[2] === entity);
        return sql || orm;
      })
      .map((f) => relative(ROOT, f));
    expect(writers).toEqual([]);
  });

  it('only the writer calls the functions of the queries file that write the register', () => {
    const statements = readFileSync(join(ROOT, WRITER_STATEMENTS), 'utf8');
    const writing = [...statements.matchAll(/export (?:async )?function (\w+)[^]*?(?=\nexport |$)/g)].filter((m) => SQL_WRITE.test(m[0])).map((m) => m[1]);
    expect(writing).toEqual(expect.arrayContaining(['insertEmptyHoldings', 'insertLots', 'insertMovements']));
    const callers = files
      .filter((f) => ![WRITER, WRITER_STATEMENTS].includes(relative(ROOT, f)))
      .filter((f) => {
        const text = readFileSync(f, 'utf8');
        return writing.some((name) => new RegExp(`\\b${name}\\b`).test(text));
      })
      .map((f) => relative(ROOT, f));
    expect(callers).toEqual([]);
  });
});
