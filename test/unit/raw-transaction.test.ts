import { ManualClock } from '../../src/common/clock';
import { rawRows } from '../../src/persistence/raw-query';
import { rawTransaction, type RawTransaction } from '../../src/persistence/raw-transaction';
import { openTestDatabase, serverUrl, type TestDatabase } from '../support/database';

/*
 * A transaction of plain statements (src/persistence/raw-transaction.ts), the relay's: committed
 * when its work returns, rolled back when it throws, its connection back in the pool either way.
 * The pool here has two connections, so connections not given back would hang the tests after.
 */
describe('rawTransaction', () => {
  let db: TestDatabase;
  const probe = () => rawRows<{ n: number }>(db.orm.em.fork(), 'select n from raw_tx_probe order by n', []);
  beforeAll(async () => {
    db = await openTestDatabase(new ManualClock(), 2);
    await rawRows(db.orm.em.fork(), 'create table raw_tx_probe (n int primary key)', []);
  });
  afterAll(async () => {
    await rawRows(db.orm.em.fork(), 'drop table raw_tx_probe', []);
    await db.close();
  });
  beforeEach(() => rawRows(db.orm.em.fork(), 'truncate raw_tx_probe', []));

  it('commits what its work wrote when the work returns, and answers what the work answered', async () => {
    const out = await rawTransaction(db.orm, async (tx) => {
      await rawRows(tx, 'insert into raw_tx_probe (n) values (?), (?)', [1, 2]);
      return (await rawRows<{ n: number }>(tx, 'select count(*)::int as n from raw_tx_probe', []))[0].n;
    });
    expect(out).toBe(2);
    expect(await probe()).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('rolls everything back when the work throws, and throws the work’s error', async () => {
    const failure = new Error('the work failed');
    await expect(
      rawTransaction(db.orm, async (tx) => {
        await rawRows(tx, 'insert into raw_tx_probe (n) values (?)', [1]);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await probe()).toEqual([]);
  });

  it('rolls back when a statement fails, with the database’s error, and gives the connection back', async () => {
    // twice: with two connections in the pool, a third transaction runs only if both came back
    for (let i = 0; i < 2; i++) {
      await expect(
        rawTransaction(db.orm, async (tx) => {
          await rawRows(tx, 'insert into raw_tx_probe (n) values (?)', [1]);
          await rawRows(tx, 'insert into raw_tx_probe (n) values (?)', [1]);
        }),
      ).rejects.toThrow(/duplicate key value violates unique constraint "raw_tx_probe_pkey"/);
    }
    expect(await probe()).toEqual([]);
    await rawTransaction(db.orm, (tx) => rawRows(tx, 'insert into raw_tx_probe (n) values (?)', [3]));
    expect(await probe()).toEqual([{ n: 3 }]);
  });

  it('refuses statements once it has ended', async () => {
    let kept: RawTransaction | null = null;
    await rawTransaction(db.orm, async (tx) => {
      kept = tx;
    });
    await expect(rawRows(kept!, 'select 1', [])).rejects.toThrow('rawTransaction: the transaction has ended');
  });

  // A second connection while the first holds a transaction: the PostgreSQL server only (the embedded database serves one at a time).
  (serverUrl() ? it : it.skip)(
    'is a transaction of its own when started inside an ORM transaction’s context (the relay is woken from a commit’s hook)',
    async () => {
      await db.orm.em.fork().transactional(async (em) => {
        await rawRows(em, 'insert into raw_tx_probe (n) values (?)', [5]);
        await rawTransaction(db.orm, (tx) => rawRows(tx, 'insert into raw_tx_probe (n) values (?)', [6]));
        // committed on its own connection already, while the ORM's transaction is still open
        expect(await rawRows(db.orm.em.fork(), 'select n from raw_tx_probe order by n', [])).toEqual([{ n: 6 }]);
      });
      expect(await probe()).toEqual([{ n: 5 }, { n: 6 }]);
    },
  );

  it('announces BEGIN, each statement and COMMIT as knex `query` events, as the ORM’s own statements are', async () => {
    const knex = db.orm.em.getKnex();
    const seen: string[] = [];
    const listener = (q: { sql: string }) => seen.push(q.sql);
    knex.client.on('query', listener);
    try {
      await rawTransaction(db.orm, (tx) => rawRows(tx, 'insert into raw_tx_probe (n) values (?)', [4]));
    } finally {
      knex.client.removeListener('query', listener);
    }
    expect(seen).toEqual(['begin', 'insert into raw_tx_probe (n) values ($1)', 'commit']);
  });
});
