import { Client } from 'pg';
import { ManualClock } from '../../src/common/clock';
import { killed, startChildGateway, type ChildGateway } from '../support/child-gateway';
import { openTestDatabase, serverUrl, type TestDatabase } from '../support/database';
import { ordersWithEventCounts } from '../support/event.factories';
import { aMarket, anInvestor } from '../support/factories';
import { httpRequest } from '../support/http';
import { FORCED_EXIT } from '../../src/boot/stop';

/**
 * The drill of a failover: while 16 writers place one-step subscriptions over REST, every
 * database connection of the gateway is terminated twice (`pg_terminate_backend`, as a failover
 * or a restarted pooler does); then the database refuses connections and SIGTERM arrives, and the
 * stop must not wait for it (docs/operations.md, "Stopping does not wait for what is down"). The built gateway runs as its own process on a PostgreSQL server
 * (the embedded database serves one process and has no backends to terminate), so this runs with
 * DATABASE_URL only.
 */
const onServer = serverUrl() ? describe : describe.skip;

const WRITERS = 16;
const DURATION_MS = 6000;
const KILLS_AT_MS = [1500, 3500];
/** Names the gateway's connections, so the admin terminates those and no other. */
const APPLICATION = 'drill-gateway';
const IN_FLIGHT = 'a request with this Idempotency-Key is still being processed; retry later';
/** The stop's documented bound when the database is away (docs/operations.md): not a speed, a limit. */
const STOP_BOUND_MS = 5000;

interface Answer {
  status: number;
  errorMsg: string | undefined;
  retryAfter: string | undefined;
  orderId: string | null;
  sentAt: number;
  answeredAt: number;
}

onServer('Every database connection of the gateway terminated under load', () => {
  let db: TestDatabase;
  let admin: Client;
  let gateway: ChildGateway | null = null;
  let database = '';
  const clock = new ManualClock();

  beforeAll(async () => {
    db = await openTestDatabase(clock);
    database = new URL(db.url!).pathname.slice(1);
    admin = new Client({ connectionString: serverUrl()! });
    await admin.connect();
  });
  afterAll(async () => {
    if (gateway) await killed(gateway.child, 'SIGKILL');
    await admin?.query(`alter database "${database}" allow_connections true`);
    await admin?.end();
    await db?.close();
  });

  it('answers only 200 or 503 with Retry-After, keeps every acknowledged order once with one event, places each keyed order exactly once however often it was retried, serves again after each termination without a restart, and stops within its bound once the database refuses', async () => {
    // given a running gateway whose connections carry an application name of their own
    const m = await aMarket(db.orm.em.fork(), clock.now());
    const url = new URL(db.url!);
    url.searchParams.set('application_name', APPLICATION);
    gateway = await startChildGateway({ DATABASE_URL: url.toString(), EVENT_POLL_MS: '50' });
    const port = gateway.port;
    const body = { distributorId: m.distributor.id, investorId: m.investor.id, shareClassId: m.shareClass.id, amount: 100 };

    // …and a second distributor whose writers send an Idempotency-Key and retry a 503 with it
    const investorB = await anInvestor(db.orm.em.fork(), m.other, { grants: [m.shareClass] });
    const bodyB = { distributorId: m.other.id, investorId: investorB.id, shareClassId: m.shareClass.id, amount: 100 };

    // when 16 writers place orders while every connection of the gateway is terminated twice
    const answers: Answer[] = [];
    const keyed: Answer[] = [];
    const started = Date.now();
    const send = async (host: string, payload: object, into: Answer[], headers?: Record<string, string>) => {
      const sentAt = Date.now();
      const res = await httpRequest(port, 'POST', '/api/v1/orders/subscribe', { host, body: payload, headers });
      const answer = {
        status: res.status,
        retryAfter: res.headers['retry-after'] as string | undefined,
        orderId: res.body?.data?.orderId ?? null,
        errorMsg: res.body?.errorMsg,
        sentAt,
        answeredAt: Date.now(),
      };
      into.push(answer);
      return answer;
    };
    const writer = async (w: number) => {
      if (w % 2 === 0) {
        while (Date.now() - started < DURATION_MS) await send(m.hostA, body, answers);
        return;
      }
      // Each order is retried with its key until acknowledged, as docs/api.md ("Idempotency-Key") tells a client to.
      for (let n = 0; Date.now() - started < DURATION_MS; n++) {
        const headers = { 'idempotency-key': `drill-${w}-${n}` };
        while ((await send(m.hostB, bodyB, keyed, headers)).status !== 200) await new Promise((r) => setTimeout(r, 50));
      }
    };
    const kills: Array<{ at: number; terminated: number }> = [];
    const killer = async () => {
      for (const at of KILLS_AT_MS) {
        await new Promise((r) => setTimeout(r, started + at - Date.now()));
        const { rows } = await admin.query(
          `select count(*)::int as n from (select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and application_name = $2 and pid <> pg_backend_pid()) t`,
          [database, APPLICATION],
        );
        kills.push({ at: Date.now(), terminated: rows[0].n });
      }
    };
    await Promise.all([...Array.from({ length: WRITERS }, (_, w) => writer(w)), killer()]);

    // then: only 200s and 503s, every 503 with Retry-After
    const byStatus: Record<number, number> = {};
    for (const a of answers) byStatus[a.status] = (byStatus[a.status] ?? 0) + 1;
    const acknowledged = answers.filter((a) => a.status === 200).map((a) => a.orderId!);
    const em = db.orm.em.fork();
    const inDatabase = await ordersWithEventCounts(em, m.distributor.id);
    const byId = new Map(inDatabase.map((r) => [r.id, r.events]));
    const firstServedAfter = (kill: { at: number }) =>
      answers.filter((a) => a.status === 200 && a.sentAt >= kill.at).sort((a, b) => a.answeredAt - b.answeredAt)[0];
    process.stdout.write(
      `drill: ${answers.length} answers ${JSON.stringify(byStatus)}; terminated ${kills.map((k) => k.terminated).join(' + ')} connections; ` +
        `${acknowledged.length} orders acknowledged, ${acknowledged.filter((id) => byId.has(id)).length} of them present, ${inDatabase.length} orders in the database; ` +
        `first 200 after each termination in ${kills.map((k) => `${(firstServedAfter(k)?.answeredAt ?? NaN) - k.at} ms`).join(', ')}\n`,
    );
    expect(kills.every((k) => k.terminated > 0)).toBe(true);
    expect(Object.keys(byStatus).filter((s) => s !== '200' && s !== '503')).toEqual([]);
    expect(answers.filter((a) => a.status === 503 && a.retryAfter !== '1')).toEqual([]);
    // every acknowledged order is in the database once, with exactly one event (its placement)
    expect(new Set(acknowledged).size).toBe(acknowledged.length);
    expect(acknowledged.filter((id) => byId.get(id) !== 1)).toEqual([]);
    // …and no order without its event, acknowledged or not
    expect(inDatabase.filter((r) => r.events !== 1)).toEqual([]);
    // the keyed writers: 200s, 503s with Retry-After, and the 409 of a key whose first try still
    // held it; every order they were told of is in the database once, and nothing else is
    const keyedStatus: Record<number, number> = {};
    for (const a of keyed) keyedStatus[a.status] = (keyedStatus[a.status] ?? 0) + 1;
    const keyedAcknowledged = keyed.filter((a) => a.status === 200).map((a) => a.orderId!);
    const inDatabaseB = await ordersWithEventCounts(em, m.other.id);
    process.stdout.write(
      `drill, writers with Idempotency-Key: ${keyed.length} answers ${JSON.stringify(keyedStatus)}; ${new Set(keyedAcknowledged).size} orders acknowledged, ${inDatabaseB.length} in the database\n`,
    );
    expect(keyed.filter((a) => a.status !== 200 && !(a.status === 503 && a.retryAfter === '1') && !(a.status === 409 && a.errorMsg === IN_FLIGHT))).toEqual([]);
    expect(inDatabaseB.map((r) => r.id).sort()).toEqual([...new Set(keyedAcknowledged)].sort());
    expect(inDatabaseB.filter((r) => r.events !== 1)).toEqual([]);
    // serving again after each termination, without a restart (how soon is printed above: a speed,
    // which a loaded machine stretches, not a rule for a test)
    for (const kill of kills) expect(firstServedAfter(kill)).toBeDefined();
    expect(gateway.child.exitCode).toBeNull();
    // and the workers carried on: every event is relayed
    let pending = -1;
    for (let i = 0; i < 100 && pending !== 0; i++) {
      if (i) await new Promise((r) => setTimeout(r, 100));
      pending = Number((await em.execute<{ n: string }[]>(`select count(*) as n from "event" where relayed_at is null`))[0].n);
    }
    expect(pending).toBe(0);
    expect((await httpRequest(port, 'GET', '/ready')).status).toBe(200);

    // when, after that load, the database refuses connections, every open one is ended, and SIGTERM arrives
    await db.close();
    await admin.query(`alter database "${database}" allow_connections false`);
    await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`, [database]);
    const shuttingDown = gateway.output().length;
    const signalled = Date.now();
    const code = await new Promise<number | null>((resolve) => {
      gateway!.child.once('exit', (c) => resolve(c));
      gateway!.child.kill('SIGTERM');
    });
    const stopMs = Date.now() - signalled;
    const output = gateway.output();
    gateway = null;
    process.stdout.write(`drill: stop with the database refusing took ${stopMs} ms\n`);
    // then the process ends by its own stop (exit 0, not the forced exit) within the stop's bound,
    // and no worker started a pass after "shutting down" (each would log the refusal again)
    expect(output).not.toContain(FORCED_EXIT);
    expect(code).toBe(0);
    expect(stopMs).toBeLessThan(STOP_BOUND_MS);
    const afterSignal = output
      .slice(shuttingDown)
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { level: number; msg: string });
    expect(afterSignal.filter((l) => l.level >= 50)).toEqual([]);
    const warnings = afterSignal.filter((l) => l.level === 40).map((l) => l.msg);
    expect(warnings.filter((w, i) => warnings.indexOf(w) !== i)).toEqual([]);
  });
});
