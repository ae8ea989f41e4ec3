import { Client } from 'pg';
import { ManualClock } from '../../src/common/clock';
import { startChildGateway, type ChildGateway } from '../support/child-gateway';
import { openTestDatabase, serverUrl, type TestDatabase } from '../support/database';
import { eventually } from '../support/chain';
import { aMarket } from '../support/factories';
import { httpRequest } from '../support/http';
import { FORCED_EXIT } from '../../src/boot/stop';

/**
 * A database that refuses is as away as one that is gone: with `ALTER DATABASE … ALLOW_CONNECTIONS
 * false` (SQLSTATE 55000 at connect time) the gateway answers 503 with Retry-After, its workers
 * log the outage once (a warning, no stack), and SIGTERM stops it cleanly (not the forced exit
 * of a stop that hangs). On the PostgreSQL server only: the embedded database has no such switch.
 */
const onServer = serverUrl() ? describe : describe.skip;
const WRITERS = 8;
const LOAD_MS = 3000;
/** A drain window as production has one (5 s there): the loops meet the refusing database during it. */
const DRAIN_MS = 1000;

onServer("the gateway's database refusing connections (ALLOW_CONNECTIONS false)", () => {
  let db: TestDatabase;
  let admin: Client;
  let gateway: ChildGateway | null = null;
  let database = '';
  let m: Awaited<ReturnType<typeof aMarket>>;
  const clock = new ManualClock();

  beforeAll(async () => {
    db = await openTestDatabase(clock);
    database = new URL(db.url!).pathname.slice(1);
    m = await aMarket(db.orm.em.fork(), clock.now());
    admin = new Client({ connectionString: serverUrl()! });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.query(`alter database "${database}" allow_connections true`);
    if (gateway && gateway.child.exitCode === null) gateway.child.kill('SIGKILL');
    await admin?.end();
    await db?.close();
  });

  it('answers 503 with Retry-After, logs one warning per worker and no error, and stops on SIGTERM with exit code 0', async () => {
    // given a running gateway on a market (the test's own connections gone)
    await db.close();
    gateway = await startChildGateway({ DATABASE_URL: db.url!, EVENT_POLL_MS: '50', DB_POOL_MAX: '2' });
    const before = gateway.output().length;
    // when its database refuses new connections and the open ones are ended
    await admin.query(`alter database "${database}" allow_connections false`);
    await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`, [database]);
    // then a request is told to come back
    const res = await eventually(
      'a 503',
      async () => {
        const r = await httpRequest(gateway!.port, 'GET', '/api/v1/funds/shareclass/all', { host: m.hostA });
        return r.status === 503 ? r : undefined;
      },
      20_000,
    );
    expect(res.headers['retry-after']).toBe('1');
    // and the workers, polling every 50 ms for a while, said it once each, at warn, without a stack
    await new Promise((r) => setTimeout(r, 2000));
    const lines = gateway
      .output()
      .slice(before)
      .split('\n')
      .filter((l) => l.startsWith('{'));
    const logged = lines.map((l) => JSON.parse(l) as { level: number; msg: string; err?: unknown });
    expect(logged.filter((l) => l.level >= 50)).toEqual([]);
    const warnings = logged.filter((l) => l.level === 40 && /unavailable; retrying with backoff/.test(l.msg)).map((l) => l.msg);
    expect(warnings.length).toBe(new Set(warnings).size);
    expect(lines.filter((l) => /\bat [\w.<>]+ \(|\.js:\d+/.test(l))).toEqual([]);
    // and SIGTERM ends it by its own stop, not the forced exit
    const code = await new Promise<number | null>((resolve) => {
      gateway!.child.once('exit', (c) => resolve(c));
      gateway!.child.kill('SIGTERM');
    });
    expect(code).toBe(0);
  }, 120_000);

  it('after load, stops by its own stop on SIGTERM while its database refuses: every background loop stops and no wait outlasts its bound', async () => {
    // given a gateway that has just served writers, its pools and loops busy
    await admin.query(`alter database "${database}" allow_connections true`);
    gateway = await startChildGateway({ DATABASE_URL: db.url!, EVENT_POLL_MS: '50', LOG_LEVEL: 'info', SHUTDOWN_DRAIN_MS: String(DRAIN_MS) });
    const port = gateway.port;
    const body = { distributorId: m.distributor.id, investorId: m.investor.id, shareClassId: m.shareClass.id, amount: 100 };
    const started = Date.now();
    const statuses: number[] = [];
    const writer = async () => {
      while (Date.now() - started < LOAD_MS) statuses.push((await httpRequest(port, 'POST', '/api/v1/orders/subscribe', { host: m.hostA, body })).status);
    };
    await Promise.all(Array.from({ length: WRITERS }, writer));
    expect(statuses.filter((s) => s !== 200)).toEqual([]);

    // when its database refuses new connections, the open ones are ended, and SIGTERM arrives
    await admin.query(`alter database "${database}" allow_connections false`);
    await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`, [database]);
    const signalled = Date.now();
    const code = await new Promise<number | null>((resolve) => {
      gateway!.child.once('exit', (c) => resolve(c));
      gateway!.child.kill('SIGTERM');
    });
    process.stdout.write(`stop after load with the database refusing took ${Date.now() - signalled} ms\n`);

    // then the process ended by its own stop: exit code 0, not the forced exit (code 1 and its line)
    const output = gateway.output();
    gateway = null;
    expect(output).not.toContain(FORCED_EXIT);
    expect(code).toBe(0);
    // and each loop said the outage once, as a warning, through the drain window and the stop
    const afterStop = output
      .slice(output.indexOf('"shutting down"'))
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { level: number; msg: string });
    expect(afterStop.filter((l) => l.level >= 50)).toEqual([]);
    const warnings = afterStop.filter((l) => l.level === 40).map((l) => l.msg);
    expect(warnings.filter((w, i) => warnings.indexOf(w) !== i)).toEqual([]);
  }, 120_000);
});
