import { ManualClock } from '../../src/common/clock';
import { startChildGateway, killed, type ChildGateway } from '../support/child-gateway';
import { openTestDatabase, serverUrl, type TestDatabase } from '../support/database';
import { httpRequest } from '../support/http';
import { TcpProxy } from '../support/tcp-proxy';
import { aMarket } from '../support/factories';
import { makeCertificates, WebhookReceiver, type TestCertificates } from '../support/webhook-receiver';

/**
 * Stopping is bounded by what is in flight, not by what is down: the built gateway, reaching
 * PostgreSQL and Redis through proxies the test cuts, gets SIGTERM during the outage and exits 0
 * within 5 s; and a request in flight at SIGTERM still finishes. It LISTENs on a PostgreSQL server
 * (the embedded database serves one process), so this runs with DATABASE_URL only; Redis is this
 * machine's (REDIS_URL, else 127.0.0.1:6379).
 */
const onServer = serverUrl() ? describe : describe.skip;
const REDIS = new URL(process.env.REDIS_URL?.trim() || 'redis://127.0.0.1:6379');

onServer('Stopping the gateway', () => {
  let db: TestDatabase;
  let pgProxy: TcpProxy;
  let redisProxy: TcpProxy;
  let gateway: ChildGateway | null = null;
  let certs: TestCertificates;
  let receiver: WebhookReceiver;
  const clock = new ManualClock();

  beforeAll(async () => {
    certs = await makeCertificates();
    receiver = await WebhookReceiver.start(certs);
    db = await openTestDatabase(clock);
    const pg = new URL(db.url!);
    pgProxy = await TcpProxy.start(pg.hostname, Number(pg.port || 5432));
    redisProxy = await TcpProxy.start(REDIS.hostname, Number(REDIS.port || 6379));
  });
  afterAll(async () => {
    if (gateway) await killed(gateway.child, 'SIGKILL');
    await pgProxy?.close();
    await redisProxy?.close();
    await db?.close();
    await receiver?.close();
    certs?.cleanup();
  });

  it('while PostgreSQL and Redis are unreachable: exits 0 within 5 s of SIGTERM, and logs the outage without a storm', async () => {
    // given a running gateway whose database and Redis go through the proxies
    gateway = await startChildGateway({
      DATABASE_URL: pgProxy.via(db.url!),
      REDIS_URL: redisProxy.via(REDIS.toString()),
      EVENT_POLL_MS: '50',
      LOG_LEVEL: 'info',
    });
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
    const messages = (level: number) =>
      lines
        .map((l) => JSON.parse(l))
        .filter((l) => l.level === level)
        .map((l) => l.msg as string);
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

  it('with a request in flight: lets it finish, then exits 0', async () => {
    // given a running gateway and a webhook whose endpoint takes 2 s to answer
    await db.truncate();
    const m = await aMarket(db.orm.em.fork(), clock.now());
    gateway = await startChildGateway({ DATABASE_URL: db.url!, WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_CA_FILE: certs.caFile });
    const port = gateway.port;
    const reg = await httpRequest(port, 'POST', '/api/v1/webhooks/register', {
      host: m.hostA,
      body: { event_type: 'order.accepted', endpoint_url: receiver.url() },
    });
    expect(reg.status).toBe(200);
    receiver.respond = () => ({ status: 200, delayMs: 2000 });

    // when SIGTERM arrives while a test delivery waits on that endpoint
    const inFlight = httpRequest(port, 'POST', '/api/v1/webhooks/test', {
      host: m.hostA,
      body: { event_type: 'order.accepted', webhook_id: reg.body.data.id },
    });
    await receiver.waitFor((all) => all.length === 1);
    const exited = new Promise<number | null>((resolve) => gateway!.child.once('exit', (code) => resolve(code)));
    gateway.child.kill('SIGTERM');

    // then the request is answered in full, and the process exits 0 after it
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ success: true });
    expect(await exited).toBe(0);
    gateway = null;
  });
});
