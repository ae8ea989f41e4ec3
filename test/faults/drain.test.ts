import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildGateway, killed, type ChildGateway } from '../support/child-gateway';
import { serverUrl } from '../support/database';
import { httpRequest } from '../support/http';
import { eventually } from '../support/chain';
import { Client } from 'pg';

/**
 * The built gateway as an operator runs it: one log line per request, and a drain that drains, seen as a load balancer sees it (docs/scaling.md): after SIGTERM the built
 * gateway answers /ready 503 `draining` for SHUTDOWN_DRAIN_MS while it still serves every other
 * request, then stops listening and exits 0. The child runs without NODE_ENV, as deployed: with
 * NODE_ENV=test (jest's) Apollo's own termination handler, which closed the server at once, was off.
 */
const DRAIN_MS = 2000;
const POLL_MS = 50;
/** The metrics token's holder learns why /ready says no. */
const METRICS_TOKEN = 'drain-drill-metrics-token-0123456789';

/** Who holds the agent key's lease (chain_signer), as the chain sender writes it: `<pid>:<uuid>`, or a lapsed one. */
async function leaseOf(db: Client): Promise<{ owner: string | null; held: boolean }> {
  const { rows } = await db.query<{ lease_owner: string | null; held: boolean }>(
    `select lease_owner, coalesce(lease_until > now(), false) as held from chain_signer where chain_id = '31337'`,
  );
  return { owner: rows[0]?.lease_owner ?? null, held: rows[0]?.held ?? false };
}

describe('Draining on SIGTERM', () => {
  let gateway: ChildGateway | null = null;
  /** On a PostgreSQL server: a second instance on the same database, waiting for the chain lease. */
  let second: ChildGateway | null = null;
  let admin: Client | null = null;
  /** The lease as the first gateway's exit left it. */
  let leaseAtExit: { owner: string | null; held: boolean } | null = null;
  let dataDir: string | null = null;

  beforeAll(async () => {
    const db = serverUrl();
    if (!db) dataDir = mkdtempSync(join(tmpdir(), 'drain-'));
    gateway = await startChildGateway({
      ...(db ? { DATABASE_URL: db } : { DATABASE_URL: undefined, DATA_DIR: dataDir! }),
      NODE_ENV: undefined,
      SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
      METRICS_TOKEN,
      LOG_LEVEL: 'info',
    });
    if (db) {
      admin = new Client({ connectionString: db });
      await admin.connect();
      // the first instance holds the lease (its sender renews it every pass) before the second starts
      await eventually('the first instance holding the lease', async () =>
        (await leaseOf(admin!)).owner?.startsWith(`${gateway!.child.pid}:`) ? true : undefined,
      );
      second = await startChildGateway({ DATABASE_URL: db, NODE_ENV: undefined });
    }
  });
  afterAll(async () => {
    if (gateway) await killed(gateway.child, 'SIGKILL');
    if (second) await killed(second.child, 'SIGKILL');
    await admin?.end();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('logs one info line per request: method, route, status, time and request id, and no query string', async () => {
    const port = gateway!.port;
    await httpRequest(port, 'GET', '/api/v1/funds/shareclass/nav/live?shareClassId=SC000001&secret=do-not-log', {
      headers: { 'x-request-id': 'drill-request-1' },
    });
    await httpRequest(port, 'POST', '/graphql', { headers: { 'x-request-id': 'drill-request-2' }, body: { query: '{ __typename }' } });
    const lines = () =>
      gateway!
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((l) => l.msg === 'request' && typeof l.requestId === 'string' && l.requestId.startsWith('drill-request-'));
    for (let i = 0; i < 50 && lines().length < 2; i++) await new Promise((r) => setTimeout(r, 100));
    const [rest, graphql] = lines();
    expect(rest).toMatchObject({ level: 30, requestId: 'drill-request-1', method: 'GET', route: 'unmatched' });
    expect(typeof rest.status).toBe('number');
    expect(typeof rest.ms).toBe('number');
    expect(graphql).toMatchObject({ level: 30, requestId: 'drill-request-2', method: 'POST', route: '/graphql' });
    expect(gateway!.output()).not.toContain('do-not-log');
  });

  it('answers /ready 503 while every request is still served for SHUTDOWN_DRAIN_MS, refuses nothing before, then exits 0', async () => {
    // given a running gateway, in rotation
    const port = gateway!.port;
    expect((await httpRequest(port, 'GET', '/ready')).status).toBe(200);
    // (an unmapped Host's answer, whatever it is, is the answer a served request keeps getting)
    const served = (await httpRequest(port, 'GET', '/api/v1/health')).status;

    // when SIGTERM arrives and a load balancer keeps asking every 50 ms
    // (the lease is read the moment the process is gone, before anything could have run out)
    const exited = new Promise<number | null>((resolve) =>
      gateway!.child.once('exit', (code) => {
        if (!admin) return resolve(code);
        void leaseOf(admin).then((lease) => {
          leaseAtExit = lease;
          resolve(code);
        });
      }),
    );
    const child = gateway!.child;
    let done = false;
    void exited.then(() => (done = true));
    const started = Date.now();
    child.kill('SIGTERM');
    const seen: { at: number; ready: number | 'refused'; health: number | 'refused'; reason?: string }[] = [];
    const answer = (path: string, headers: Record<string, string> = {}) =>
      httpRequest(port, 'GET', path, { headers }).then(
        (r) => r,
        () => null,
      );
    while (!done && Date.now() - started < 15_000) {
      const sent = Date.now() - started;
      const [ready, health] = await Promise.all([answer('/ready', { authorization: `Bearer ${METRICS_TOKEN}` }), answer('/api/v1/health')]);
      seen.push({ at: sent, ready: ready?.status ?? 'refused', health: health?.status ?? 'refused', reason: ready?.body?.errorMsg });
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    const code = await exited;
    gateway = null;

    // then, from the signal's handling on (a loaded child may answer 200 a moment after the kill),
    // /ready said draining through the window and everything else was served
    const from = seen.findIndex((s) => s.ready === 503);
    expect(from).toBeGreaterThanOrEqual(0);
    expect(seen.slice(0, from).filter((s) => s.ready !== 200 || s.health !== served)).toEqual([]);
    // (`at` is when a look was sent) the window began when the signal was handled: after the last 200's look was sent
    const windowEnds = (from > 0 ? seen[from - 1].at : 0) + DRAIN_MS - 300;
    const window = seen.slice(from).filter((s) => s.at < windowEnds);
    expect(window.length).toBeGreaterThanOrEqual(5);
    expect(window.filter((s) => s.ready !== 503 || s.reason !== 'draining' || s.health !== served)).toEqual([]);
    // and nothing was refused before the window ended
    expect(seen.filter((s) => s.at < windowEnds && (s.ready === 'refused' || s.health === 'refused'))).toEqual([]);
    expect(code).toBe(0);
  });

  (serverUrl() ? it : it.skip)(
    "gives up the chain lease at its stop: a second instance on the same database takes chain work at once, not at the lease's end",
    async () => {
      // given the first instance stopped while the second waited for the agent key's lease
      expect(leaseAtExit).not.toBeNull();
      // then, when the first was gone, its lease was no longer held: released at the stop (a lease
      // left to run out is held by the dead owner for its length, 5 s on the embedded chain)…
      expect(leaseAtExit!.held === false || leaseAtExit!.owner?.startsWith(`${second!.child.pid}:`)).toBe(true);
      // …and the second instance's sender takes it at its next pass
      const taken = await eventually('the second instance holding the lease', async () => {
        const lease = await leaseOf(admin!);
        return lease.held && lease.owner?.startsWith(`${second!.child.pid}:`) ? lease : undefined;
      });
      expect(taken.held).toBe(true);
    },
  );
});
