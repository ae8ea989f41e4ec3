import { Client } from 'pg';
import { rawRows } from '../../src/persistence/raw-query';
import { serverUrl } from '../support/database';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { eventually } from '../support/chain';
import { httpRequest } from '../support/http';

/*
 * The audit log is written ahead (docs/approvals.md, "The audit log"): an ops mutation's row is
 * committed, `pending`, before the mutation writes anything, and sealed once with its outcome. A
 * committed mutation without its row cannot happen: a mutation whose row cannot be written does
 * not run, and a crash between the two leaves the row `pending`, never missing.
 */

const ISSUE = (name: string) => `mutation { issueOpsToken(name: "${name}", roles: ["viewer"]) { token } }`;

type Row = { outcome: string; error_code: string | null; at: string; answered_at: string | null };

describe('The audit log, written ahead of the mutation', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  const rowsOf = (operation: string) =>
    rawRows<Row>(gw.em(), 'select outcome, error_code, at, answered_at from audit_log where operation = ? order by id', [operation]);
  const tokensNamed = (name: string) => rawRows(gw.em(), 'select 1 from ops_token t join ops_principal p on p.id = t.principal_id where p.name = ?', [name]);

  (serverUrl() ? it : it.skip)("an ops mutation's row is committed, pending, before the mutation writes, and sealed ok with the time it answered", async () => {
    // given a second connection holding the ops tokens' table against writes (reads still pass)
    const token = await gw.opsToken();
    const holder = new Client({ connectionString: gw.db.url! });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('lock table ops_token in share mode');
      // when an admin issues a token, its write waits on the lock
      const issuing = gw.graphql(ISSUE('desk-ahead'), {}, { token });
      // then its row is already in the log, pending, seen from another connection
      const pending = await eventually('the pending row', async () => (await rowsOf('issueOpsToken'))[0], 10_000);
      expect(pending).toMatchObject({ outcome: 'pending', error_code: null, answered_at: null });
      expect(await tokensNamed('desk-ahead')).toEqual([]);
      // and once the write goes through, the same row is sealed ok, with the time it answered
      await holder.query('commit');
      expect((await issuing).body.data!.issueOpsToken.token).toMatch(/^ops_/);
      const [sealed] = await rowsOf('issueOpsToken');
      expect(sealed).toMatchObject({ outcome: 'ok', error_code: null });
      expect(Date.parse(sealed.answered_at!)).toBeGreaterThanOrEqual(Date.parse(sealed.at));
      expect(await rowsOf('issueOpsToken')).toHaveLength(1);
    } finally {
      await holder.end();
    }
  });

  it('a mutation whose row cannot be written does not run: no token is issued, and the caller is told it failed', async () => {
    const token = await gw.opsToken();
    await rawRows(gw.em(), `create function refuse_audit() returns trigger language plpgsql as $$ begin raise exception 'audit log unavailable'; end $$`, []);
    await rawRows(gw.em(), 'create trigger refuse_audit before insert on audit_log for each row execute function refuse_audit()', []);
    try {
      const res = await gw.graphql(ISSUE('desk-unlogged'), {}, { token });
      expect(res.body.data).toBeNull();
      expect(res.body.errors![0].extensions.code).toBe('INTERNAL_SERVER_ERROR');
      expect(await tokensNamed('desk-unlogged')).toEqual([]);
    } finally {
      await rawRows(gw.em(), 'drop trigger refuse_audit on audit_log', []);
      await rawRows(gw.em(), 'drop function refuse_audit()', []);
    }
  });

  describe('the database lets a pending row be sealed once, and nothing else', () => {
    async function aPendingRow(at = gw.clock.now()): Promise<string> {
      const [row] = await rawRows<{ id: string }>(
        gw.em(),
        `insert into audit_log (at, principal, actor_note, operation, arguments, outcome, request_id)
         values (?, 'ops:test-ops', 'desk', 'publishNav', '{"nav":"1.00"}', 'pending', 'req-1') returning id`,
        [at],
      );
      return row.id;
    }
    const update = (id: string, set: string) => rawRows(gw.em(), `update audit_log set ${set} where id = ?`, [id]);
    const REFUSED = /audit_log is append-only: UPDATE refused/;

    it('seals pending as ok or as error, with the time it answered', async () => {
      const ok = await aPendingRow();
      await update(ok, `outcome = 'ok', answered_at = now()`);
      const failed = await aPendingRow();
      await update(failed, `outcome = 'error', error_code = 'CONFLICT', answered_at = now()`);
      expect(await rowsOf('publishNav')).toEqual([
        expect.objectContaining({ outcome: 'ok', error_code: null }),
        expect.objectContaining({ outcome: 'error', error_code: 'CONFLICT' }),
      ]);
    });

    it('refuses a second seal, a seal without its time, and a time without a seal', async () => {
      const id = await aPendingRow();
      await expect(update(id, `answered_at = now()`)).rejects.toThrow(REFUSED);
      await expect(update(id, `outcome = 'ok'`)).rejects.toThrow(/audit_log_answered/);
      await update(id, `outcome = 'ok', answered_at = now()`);
      await expect(update(id, `outcome = 'error', error_code = 'CONFLICT'`)).rejects.toThrow(REFUSED);
      await expect(update(id, `answered_at = now() + interval '1 day'`)).rejects.toThrow(REFUSED);
      await expect(update(id, `outcome = 'pending', answered_at = null`)).rejects.toThrow(REFUSED);
    });

    const OTHER_COLUMNS = [
      ['id', `id = id + 1000`],
      ['at', `at = at - interval '1 day'`],
      ['principal', `principal = 'ops:nobody'`],
      ['actor_note', `actor_note = null`],
      ['operation', `operation = 'rejectRequest'`],
      ['arguments', `arguments = '{}'`],
      ['request_id', `request_id = 'req-2'`],
    ];

    it('the columns below are every column a seal does not set', async () => {
      const columns = await rawRows<{ column_name: string }>(
        gw.em(),
        `select column_name from information_schema.columns where table_name = 'audit_log' order by column_name`,
        [],
      );
      const sealed = ['answered_at', 'error_code', 'outcome'];
      expect(columns.map((c) => c.column_name).filter((c) => !sealed.includes(c))).toEqual(OTHER_COLUMNS.map(([c]) => c).sort());
    });

    it.each(OTHER_COLUMNS)('refuses a seal that also changes %s', async (_column, change) => {
      const id = await aPendingRow();
      await expect(update(id, `outcome = 'ok', answered_at = now(), ${change}`)).rejects.toThrow(REFUSED);
      expect(await rowsOf('publishNav')).toEqual([expect.objectContaining({ outcome: 'pending', answered_at: null })]);
    });

    it('gateway_audit_log_unanswered_seconds is the age of the oldest row without an answer, 0 once it is sealed', async () => {
      // seconds by the gateway's clock, read when scraped: a few milliseconds past the rows' ages
      const unanswered = async () => Number(/^gateway_audit_log_unanswered_seconds (\S+)$/m.exec((await httpRequest(gw.port, 'GET', '/metrics')).text)?.[1]);
      expect(await unanswered()).toBe(0);
      const oldest = await aPendingRow(new Date(gw.clock.now().getTime() - 600_000));
      await aPendingRow(new Date(gw.clock.now().getTime() - 60_000));
      expect(await unanswered()).toBeGreaterThanOrEqual(600);
      expect(await unanswered()).toBeLessThan(630);
      await update(oldest, `outcome = 'ok', answered_at = now()`);
      expect(await unanswered()).toBeGreaterThanOrEqual(60);
      expect(await unanswered()).toBeLessThan(90);
    });

    it('refuses deleting a pending row', async () => {
      await aPendingRow();
      await expect(rawRows(gw.em(), 'delete from audit_log', [])).rejects.toThrow(/audit_log is append-only: DELETE refused/);
    });
  });
});
