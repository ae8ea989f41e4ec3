/**
 * Latency from a committed state change to (a) the first webhook delivery attempt and (b) the
 * subscription message, over N order transitions, against a real PostgreSQL.
 *
 *   DATABASE_URL=postgres://… npm run bench:events            (N=1000 after 100 to start with, 50 transitions/s)
 *   BENCH_EVENTS=2000 BENCH_RATE=100 BENCH_EVENTS_WARM_UP=0 DATABASE_URL=… npm run bench:events
 *   DATABASE_URL=… npm run bench:events -- --quick      (N=20 after 5: the smoke run)
 *
 * The gateway runs under APP_ENV=test with production's keys (bench/production-env.ts says why),
 * its webhooks allowed to the receiver on 127.0.0.1 by WEBHOOK_ALLOWED_HOSTS and trusted by WEBHOOK_CA_FILE.
 *
 * The gateway runs as its own process (the built dist/src/main.js) on a fresh database
 * `<database>_bench`; this process commits the transitions (through `recordTransition`, in a
 * transaction, as the order services do); the webhooks are received over HTTPS and the
 * graphql-ws subscription held on threads of their own, so that each arrival is timed when it
 * comes in. Times are wall-clock ms on one machine. The gateway's CPU per measured event (its
 * process's user and system time, read from /proc) is reported beside them.
 */
import 'reflect-metadata';
import type { MikroORM } from '@mikro-orm/postgresql';
import { systemClock } from '../src/common/clock';
import { freshEventsMarket } from './events-market';
import { aPendingOrder, moveOrder } from '../test/support/event.factories';
import { httpRequest } from '../test/support/http';
import { eventsBenchEnv, QUICK } from './production-env';
import { killed, startChildGateway } from '../test/support/child-gateway';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { makeCertificates } from '../test/support/webhook-receiver';

const N = Number(process.env.BENCH_EVENTS ?? (QUICK ? 20 : 1000));
const RATE = Number(process.env.BENCH_RATE ?? 50);
/**
 * Transitions at the same rate before the measured ones, reported apart as `coldStart`: a gateway
 * just started opens its database connections and its webhook endpoint's TLS connections and
 * compiles its hot paths on its first events, which took 60–150 ms each for about a dozen of them
 * (2026-11-27) and so decided the p99 of a thousand on their own.
 */
const WARM_UP = Number(process.env.BENCH_EVENTS_WARM_UP ?? (QUICK ? 5 : 100));

function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
  return { n: s.length, median: q(0.5), p90: q(0.9), p99: q(0.99), max: s[s.length - 1] };
}

async function main() {
  const { url, orm, market: m } = await freshEventsMarket('bench', 4);

  const certs = await makeCertificates();
  const committedAt = new Map<string, number>();
  const webhookAt = new Map<string, number>();
  const subscriptionAt = new Map<string, number>();
  const receiver = new Worker(join(__dirname, 'receiver-thread.js'), { workerData: { key: certs.key, cert: certs.cert } });
  const receiverPort = await new Promise<number>((resolve) =>
    receiver.on('message', (m: { port?: number; orderId?: string; at?: number }) => {
      if (m.port) resolve(m.port);
      else if (m.orderId && !webhookAt.has(m.orderId)) webhookAt.set(m.orderId, m.at!);
    }),
  );
  const gateway = await startChildGateway({
    ...eventsBenchEnv(),
    DATABASE_URL: url.toString(),
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    WEBHOOK_CA_FILE: certs.caFile,
    LOG_LEVEL: 'error',
    ...(process.env.WEBHOOK_PER_ENDPOINT ? { WEBHOOK_PER_ENDPOINT: process.env.WEBHOOK_PER_ENDPOINT } : {}),
  });
  try {
    const reg = await httpRequest(gateway.port, 'POST', '/api/v1/webhooks/register', {
      host: m.hostA,
      body: { event_type: 'order.accepted', endpoint_url: `https://127.0.0.1:${receiverPort}/hook` },
    });
    if (reg.status !== 200) throw new Error(`register: ${reg.text}`);
    // The gateway prints no token outside development: issue one through the CLI path the gateway uses.
    const ops = await issueOpsToken(orm);
    const subscriber = new Worker(join(__dirname, 'event-subscriber-thread.js'), {
      workerData: { port: gateway.port, query: `subscription { orderUpdated(status: "accepted") { orderId } }`, token: ops },
    });
    await new Promise<void>((resolve, reject) =>
      subscriber.on('message', (m: { subscribed?: boolean; error?: string; orderId?: string; at?: number }) => {
        if (m.subscribed) resolve();
        else if (m.error) reject(new Error(`subscribe: ${m.error}`));
        else if (m.orderId && !subscriptionAt.has(m.orderId)) subscriptionAt.set(m.orderId, m.at!);
      }),
    );

    // Orders are placed first; the measured change is pending → accepted.
    const placed: string[] = [];
    for (let i = 0; i < WARM_UP + N; i++) placed.push(await aPendingOrder(orm, m, systemClock.now()));
    const [cold, orders] = [placed.slice(0, WARM_UP), placed.slice(WARM_UP)];
    await new Promise((r) => setTimeout(r, 1000));
    /** Moves `ids` at RATE, then waits (30 s at most) for their webhooks and messages. */
    const transitions = async (ids: string[]) => {
      const started = Date.now();
      for (let i = 0; i < ids.length; i++) {
        const due = started + (i * 1000) / RATE;
        const wait = due - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        await moveOrder(orm, ids[i], 'accepted', systemClock.now());
        committedAt.set(ids[i], Date.now());
      }
      const arrived = () => ids.every((id) => webhookAt.has(id) && subscriptionAt.has(id));
      const deadline = Date.now() + 30_000;
      while (!arrived() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    };
    process.stdout.write(`placed ${WARM_UP + N} orders; ${WARM_UP} transitions to start with, then ${N} measured, at ${RATE}/s\n`);
    await transitions(cold);
    const cpu0 = processCpuMicros(gateway.child.pid);
    await transitions(orders);
    const cpu1 = processCpuMicros(gateway.child.pid);
    await subscriber.terminate();
    const lat = (ids: string[], at: Map<string, number>) => ids.filter((o) => at.has(o)).map((o) => at.get(o)! - committedAt.get(o)!);
    const missing = (ids: string[], at: Map<string, number>) => ids.filter((o) => !at.has(o)).length;
    const result = {
      events: N,
      ratePerSecond: RATE,
      webhookFirstAttemptMs: stats(lat(orders, webhookAt)),
      subscriptionMessageMs: stats(lat(orders, subscriptionAt)),
      missingWebhooks: missing(orders, webhookAt),
      missingSubscriptionMessages: missing(orders, subscriptionAt),
      // What the gateway spent per measured event: the relay's pass, the fan-out, the webhook's
      // HTTPS attempt and its record, the subscription message (null where /proc is not there).
      gatewayCpuPerEventUs: cpu0 === null || cpu1 === null ? null : Math.round((cpu1 - cpu0) / N),
      coldStart: {
        events: WARM_UP,
        webhookFirstAttemptMs: stats(lat(cold, webhookAt)),
        subscriptionMessageMs: stats(lat(cold, subscriptionAt)),
        missingWebhooks: missing(cold, webhookAt),
        missingSubscriptionMessages: missing(cold, subscriptionAt),
      },
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await killed(gateway.child, 'SIGTERM');
    await receiver.terminate();
    certs.cleanup();
    await orm.close(true);
  }
}

/** Ticks per second of /proc's CPU times (`getconf CLK_TCK`, 100 on Linux as built everywhere). */
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** A process's CPU time so far (user and system), µs, from /proc; null where there is none. */
function processCpuMicros(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command's `(name)`: state is field 3, utime field 14, stime field 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

async function issueOpsToken(orm: MikroORM): Promise<string> {
  const { OpsTokenService } = await import('../src/modules/auth/ops-token.service');
  return (await new OpsTokenService(systemClock).issue(orm.em.fork(), 'bench', ['admin'])).token;
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${err?.stack ?? err}\n`);
    process.exit(1);
  },
);
