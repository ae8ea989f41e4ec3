/**
 * Live updates at scale: N graphql-ws subscribers of `orderUpdated` spread over two gateway
 * instances that fan out through Redis, while this process commits order transitions at a fixed
 * rate; reports commit → message latency per subscriber message and how many never arrived.
 *
 *   DATABASE_URL=postgres://… npm run bench:subscribers
 *   BENCH_SUBSCRIBERS=1000 BENCH_RATE=200 BENCH_SECONDS=10 BENCH_SUB_THREADS=2 REDIS_URL=redis://127.0.0.1:6379
 *
 * BENCH_PRODUCERS=2 threads commit the transitions.
 *
 * Subscribers are ops (the ops token): each one hears every transition, the heaviest fan-out
 * (N × rate messages a second). Each instance is the built gateway (dist/src/main.js) as a child
 * process on a fresh database `<database>_subs`, on a Redis channel prefix of its own so nothing
 * crosses with other runs sharing the Redis. Transitions (pending → accepted) are committed as
 * the order services commit them (`recordTransition` in a transaction); the time of commit is
 * when COMMIT returned. Subscribers live on worker threads (bench/subscriber-thread.ts); the
 * report gives their event-loop utilisation and this process's CPU, so a client-side bottleneck
 * shows. Bounded: the producer stops after BENCH_SECONDS, the drain after 30 s.
 */
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { systemClock } from '../src/common/clock';
import { freshEventsMarket } from './events-market';
import { aPendingOrder, moveOrder } from '../test/support/event.factories';
import { eventsBenchEnv, QUICK } from './production-env';
import { killed, startChildGateway, type ChildGateway } from '../test/support/child-gateway';

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? (QUICK ? 20 : 1000));
const RATE = Number(process.env.BENCH_RATE ?? (QUICK ? 20 : 200));
const SECONDS = Number(process.env.BENCH_SECONDS ?? (QUICK ? 2 : 10));
const THREADS = Number(process.env.BENCH_SUB_THREADS ?? 2);
const PRODUCERS = Number(process.env.BENCH_PRODUCERS ?? 2);
const REDIS = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Commits in flight at once per producer thread: one at a time would cap the rate at 1 / commit time. */
const IN_FLIGHT = 8;
const DRAIN_MS = 30_000;
/** Transitions each producer thread commits before the measurement. */
const WARM_UP = QUICK ? 5 : 100;
const QUERY = 'subscription { orderUpdated(status: "accepted") { orderId } }';

const log = (line: string) => process.stderr.write(`[subscribers] ${line}\n`);
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

function stats(xs: Float64Array) {
  const s = Float64Array.from(xs).sort();
  const q = (p: number) => (s.length ? s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)] : null);
  return { messages: s.length, p50: q(0.5), p90: q(0.9), p99: q(0.99), max: s.length ? s[s.length - 1] : null };
}

/** User + system CPU of a process so far, ms (Linux /proc; clock ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

interface Share {
  worker: Worker;
  next<T>(type: string): Promise<T>;
}

function startShare(ports: number[], token: string, count: number, offset: number): Share {
  const worker = new Worker(join(__dirname, 'subscriber-thread.js'), { workerData: { ports, token, count, offset, query: QUERY } });
  const waiting = new Map<string, (m: unknown) => void>();
  worker.on('message', (m: { type: string }) => waiting.get(m.type)?.(m));
  worker.on('error', (err) => log(`subscriber thread failed: ${err.stack}`));
  return {
    worker,
    next: <T>(type: string) => new Promise<T>((resolve) => waiting.set(type, resolve as (m: unknown) => void)),
  };
}

async function main() {
  const { url, orm, market: m } = await freshEventsMarket('subs', IN_FLIGHT + 2);
  const { OpsTokenService } = await import('../src/modules/auth/ops-token.service');
  const { token } = await new OpsTokenService(systemClock).issue(orm.em.fork(), 'bench-subscribers', ['admin']);

  const total = Math.round(RATE * SECONDS);
  const orders: string[] = [];
  // Besides the measured ones: the probe that shows every subscriber is listening, and the
  // producers' warm-up (a cold ORM commits several times slower).
  const extra = 1 + WARM_UP * PRODUCERS;
  for (let i = 0; i < total + extra; i += IN_FLIGHT) {
    orders.push(...(await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, total + extra - i) }, () => aPendingOrder(orm, m, systemClock.now())))));
  }
  log(`placed ${orders.length} pending orders`);

  const env = { ...eventsBenchEnv(), DATABASE_URL: url.toString(), REDIS_URL: REDIS, REDIS_CHANNEL_PREFIX: `bench-subs-${process.pid}:`, LOG_LEVEL: 'error' };
  const gateways: ChildGateway[] = [];
  const shares: Share[] = [];
  const producerThreads: Worker[] = [];
  try {
    gateways.push(...(await Promise.all([startChildGateway(env), startChildGateway(env)])));
    const ports = gateways.map((g) => g.port);
    const perThread = Math.ceil(SUBSCRIBERS / THREADS);
    for (let t = 0; t < THREADS; t++) shares.push(startShare(ports, token, Math.min(perThread, SUBSCRIBERS - t * perThread), t * perThread));
    const connected = (await Promise.all(shares.map((s) => s.next<{ connected: number }>('connected')))).reduce((a, x) => a + x.connected, 0);
    log(`${connected} of ${SUBSCRIBERS} subscribers connected over ${ports.length} instances (ports ${ports.join(', ')}) on ${THREADS} threads`);

    const [probe, ...rest] = orders;
    const warmUp = rest.slice(0, WARM_UP * PRODUCERS);
    const measured = rest.slice(WARM_UP * PRODUCERS);
    await moveOrder(orm, probe, 'accepted', systemClock.now());
    const heard = await Promise.all(
      shares.map((s) => (s.worker.postMessage({ type: 'await', ids: [probe], until: Date.now() + 30_000 }), s.next<{ counts: number[] }>('awaited'))),
    );
    log(`probe transition reached ${heard.reduce((a, h) => a + h.counts[0], 0)} subscribers`);

    const producers = await Promise.all(
      Array.from({ length: PRODUCERS }, () => {
        const w = new Worker(join(__dirname, 'producer-thread.js'), { workerData: { url: url.toString(), connections: IN_FLIGHT } });
        producerThreads.push(w);
        return new Promise<Worker>((resolve) => w.once('message', () => resolve(w)));
      }),
    );
    await Promise.all(
      producers.map((p, k) => {
        const ids = warmUp.filter((_, i) => i % PRODUCERS === k);
        return new Promise<void>((resolve) => {
          let left = ids.length;
          const done = (msg: { type: string }) => (msg.type === 'moved' || msg.type === 'failed') && --left === 0 && (p.off('message', done), resolve());
          p.on('message', done);
          for (const id of ids) p.postMessage({ type: 'move', id });
        });
      }),
    );
    await wait(1000);
    for (const s of shares) s.worker.postMessage({ type: 'measure-start' });
    const mainElu = performance.eventLoopUtilization();
    const cpuBefore = { self: process.cpuUsage(), gateways: gateways.map((g) => cpuMsOf(g.child.pid!)) };
    const committed: [string, number][] = [];
    let failures = 0;
    let lastError = '';
    const started = Date.now();
    let behind = 0;
    let inFlight = 0;
    for (const p of producers) {
      p.on('message', (msg: { type: string; id?: string; at?: number; error?: string }) => {
        if (msg.type === 'moved') committed.push([msg.id!, msg.at!]);
        else if (msg.type === 'failed') {
          failures++;
          lastError = msg.error!;
        }
        if (msg.type === 'moved' || msg.type === 'failed') inFlight--;
      });
    }
    // Due times are kept whatever the lag; in flight is bounded, so a slow producer lowers the rate
    // (reported) instead of queueing without end.
    for (let i = 0; i < measured.length; i++) {
      const due = started + (i * 1000) / RATE;
      const lag = due - Date.now();
      if (lag > 0) await wait(lag);
      else if (lag < -100) behind++;
      while (inFlight >= IN_FLIGHT * PRODUCERS) await wait(1);
      inFlight++;
      producers[i % PRODUCERS].postMessage({ type: 'move', id: measured[i] });
    }
    const producerDeadline = Date.now() + DRAIN_MS;
    while (inFlight > 0 && Date.now() < producerDeadline) await wait(5);
    const producedIn = (Date.now() - started) / 1000;
    const producerElu = await Promise.all(
      producers.map(
        (p) =>
          new Promise<number>((resolve) => {
            p.on('message', (msg: { type: string; elu?: number }) => msg.type === 'stopped' && resolve(msg.elu!));
            p.postMessage({ type: 'stop' });
          }),
      ),
    );
    log(
      `committed ${committed.length} transitions in ${producedIn.toFixed(1)} s (${(committed.length / producedIn).toFixed(0)}/s; ${behind} more than 100 ms late; ${failures} failed${failures ? `: ${lastError}` : ''})`,
    );

    const until = Date.now() + DRAIN_MS;
    const results = await Promise.all(
      shares.map((s) => {
        s.worker.postMessage({ type: 'finish', committed, until });
        return s.next<{ latencies: Float64Array; missing: number; duplicates: number; received: number; errors: number; elu: number; subscribers: number }>(
          'finished',
        );
      }),
    );
    const wall = (Date.now() - started) / 1000;
    const selfCpu = process.cpuUsage(cpuBefore.self);
    const gatewayCpu = gateways.map((g, i) => cpuMsOf(g.child.pid!) - cpuBefore.gateways[i]);
    const all = new Float64Array(results.reduce((a, r) => a + r.latencies.length, 0));
    let at = 0;
    for (const r of results) {
      all.set(r.latencies, at);
      at += r.latencies.length;
    }
    const subscribed = results.reduce((a, r) => a + r.subscribers, 0);
    const result = {
      subscribers: {
        asked: SUBSCRIBERS,
        connected: subscribed,
        kind: 'ops (ops token), status filter "accepted": every one hears every transition',
        instances: ports.length,
        threads: THREADS,
      },
      transitions: { committed: committed.length, ratePerSecondAsked: RATE, ratePerSecondCommitted: Math.round(committed.length / producedIn) },
      commitToMessageMs: stats(all),
      expectedMessages: committed.length * SUBSCRIBERS,
      // A subscriber that never connected misses every message.
      missingMessages: results.reduce((a, r) => a + r.missing, 0) + (SUBSCRIBERS - subscribed) * committed.length,
      duplicateMessages: results.reduce((a, r) => a + r.duplicates, 0),
      subscriptionErrors: results.reduce((a, r) => a + r.errors, 0),
      clientSide: {
        wallSeconds: Number(wall.toFixed(1)),
        mainThreadEventLoopUtilization: Number(performance.eventLoopUtilization(mainElu).utilization.toFixed(2)),
        producerThreadEventLoopUtilization: producerElu.map((u) => Number(u.toFixed(2))),
        processCpuSeconds: Number(((selfCpu.user + selfCpu.system) / 1e6).toFixed(1)),
        subscriberThreadEventLoopUtilization: results.map((r) => Number(r.elu.toFixed(2))),
      },
      gatewayCpuSeconds: gatewayCpu.map((ms) => Number((ms / 1000).toFixed(1))),
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await Promise.all([...shares.map((s) => s.worker), ...producerThreads].map((w) => w.terminate()));
    await Promise.all(gateways.map((g) => killed(g.child, 'SIGTERM')));
    await orm.close(true);
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${err?.stack ?? err}\n`);
    process.exit(1);
  },
);
