import { ManualClock } from '../../src/common/clock';
import { startChildGateway, killed, type ChildGateway } from '../support/child-gateway';
import { openTestDatabase, serverUrl, type TestDatabase } from '../support/database';
import { httpRequest } from '../support/http';
import { TcpProxy } from '../support/tcp-proxy';

/**
 * Stopping is bounded by what is in flight, not by what is down: the built gateway, reaching
 * PostgreSQL and Redis through proxies the test cuts, gets SIGTERM during the outage and exits 0
 * within 5 s. It LISTENs on a PostgreSQL server (the embedded database serves one process), so
 * this runs with DATABASE_URL only; Redis is this machine's (REDIS_URL, else 127.0.0.1:6379).
 */
const onServer = serverUrl() ? describe : describe.skip;
const REDIS = new URL(process.env.REDIS_URL?.trim() || 'redis://127.0.0.1:6379');

onServer('A gateway stopped while PostgreSQL and Redis are unreachable', () => {
  let db: TestDatabase;
  let pgProxy: TcpProxy;
  let redisProxy: TcpProxy;
  let gateway: ChildGateway | null = null;

  beforeAll(async () => {
    db = await openTestDatabase(new ManualClock());
    const pg = new URL(db.url!);
    pgProxy = await TcpProxy.start(pg.hostname, Number(pg.port || 5432));
    redisProxy = await TcpProxy.start(REDIS.hostname, Number(REDIS.port || 6379));
  });
  afterAll(async () => {
    if (gateway) await killed(gateway.child, 'SIGKILL');
    await pgProxy?.close();
    await redisProxy?.close();
    await db?.close();
  });

  it('exits 0 within 5 s of SIGTERM, and logs the outage without a storm', async () => {
    // given a running gateway whose database and Redis go through the proxies
    gateway = await startChildGateway({ DATABASE_URL: pgProxy.via(db.url!), REDIS_URL: redisProxy.via(REDIS.toString()), EVENT_POLL_MS: '50', LOG_LEVEL: 'info' });
    expect((await httpRequest(gateway.port, 'GET', '/ready')).status).toBe(200);

    // when both go away, and their clients have been reconnecting for a while
    await pgProxy.cut();
    await redisProxy.cut();
    await new Promise((r) => setTimeout(r, 3000));
    const ready = await httpRequest(gateway.port, 'GET', '/ready');
    expect(ready.status).toBe(503);
    const started = Date.now();
    const exited = new Promise<number | null>((resolve) => gateway!.child.once('exit', (code) => resolve(code)));
    gateway.child.kill('SIGTERM');
    const code = await exited;
    const took = Date.now() - started;
    const output = gateway.output();
    gateway = null;

    // then it stopped at once, cleanly
    process.stdout.write(`stop during the outage took ${took} ms\n`);
    expect(code).toBe(0);
    expect(took).toBeLessThan(5000);
    // and the outage was logged, not stormed: 3 s of 50 ms polls are ~60 passes per worker
    const lines = output.split('\n').filter((l) => l.startsWith('{'));
    const messages = (level: number) => lines.map((l) => JSON.parse(l)).filter((l) => l.level === level).map((l) => l.msg as string);
    expect(lines.filter((l) => JSON.parse(l).level >= 50)).toEqual([]);
    const warnings = messages(40);
    // one line per thing that went away (relay, worker, their LISTEN connections, three Redis clients), each once
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings.filter((w, i) => warnings.indexOf(w) !== i)).toEqual([]);
    expect(warnings.every((w) => /unavailable; retrying with backoff$/.test(w))).toBe(true);
    // nothing reconnects after the stop began
    const afterStop = lines.slice(lines.findIndex((l) => l.includes('shutting down')) + 1);
    expect(afterStop.filter((l) => /reconnect|redis connection|LISTEN/i.test(l))).toEqual([]);
  });
});
