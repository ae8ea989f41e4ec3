/**
 * R-two-step throughput and latency over HTTP, against DATABASE_URL (or the embedded database):
 * `npm run build && DATABASE_URL=postgres://… node dist/bench/two-step.bench.js [orders] [concurrency]`.
 * Places `orders` subscriptions from three distributors with `concurrency` requests in flight,
 * then pushes every order to the provider simulator the same way, and prints the figures.
 */
import 'reflect-metadata';
import { aDistributor, aGrant, aMarket, anInvestor } from '../test/support/factories';
import { startTestGateway } from '../test/support/gateway';
import { aSimulator, providersFor, subscribeBody } from '../test/support/order.factories';

async function run<T>(count: number, concurrency: number, job: (i: number) => Promise<T>): Promise<{ ms: number; latencies: number[]; results: T[] }> {
  const latencies: number[] = [];
  const results: T[] = new Array(count);
  let next = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const t = process.hrtime.bigint();
        results[i] = await job(i);
        latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
      }
    }),
  );
  return { ms: Date.now() - started, latencies: latencies.sort((a, b) => a - b), results };
}

const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))].toFixed(1);

async function main() {
  const count = Number(process.argv[2] ?? 600);
  const concurrency = Number(process.argv[3] ?? 30);
  const sim = await aSimulator();
  const gw = await startTestGateway({ supply: providersFor(sim), poolMax: 10 });
  try {
    const m = await aMarket(gw.em(), gw.clock.now());
    sim.addFund(m.shareClass.fund.id);
    const third = await aDistributor(gw.em(), ['dist-c.test']);
    await aGrant(gw.em(), third, m.shareClass);
    const sellers = [
      { distributor: m.distributor, host: 'dist-a.test' },
      { distributor: m.other, host: 'dist-b.test' },
      { distributor: third, host: 'dist-c.test' },
    ];
    const investors = await Promise.all(sellers.map((s) => anInvestor(gw.em(), s.distributor, { grants: [m.shareClass] })));
    const create = await run(count, concurrency, async (i) => {
      const s = sellers[i % 3];
      const res = await gw.api('POST', '/orders/subscribe', { host: s.host, body: subscribeBody({ distributor: s.distributor, investor: investors[i % 3], shareClass: m.shareClass, hostA: s.host }) });
      if (res.status !== 200) throw new Error(res.text);
      return { id: res.body.data.orderId as string, host: s.host };
    });
    const push = await run(count, concurrency, async (i) => {
      const o = create.results[i];
      const res = await gw.api('POST', `/orders/subscriptions/push/${o.id}`, { host: o.host });
      if (res.status !== 200) throw new Error(res.text);
    });
    const line = (name: string, r: { ms: number; latencies: number[] }) =>
      `${name.padEnd(10)} ${count} in ${r.ms} ms = ${((count * 1000) / r.ms).toFixed(0)}/s; latency p50 ${pct(r.latencies, 50)} ms, p95 ${pct(r.latencies, 95)} ms, max ${pct(r.latencies, 100)} ms`;
    console.log(`database: ${gw.db.url ? 'PostgreSQL server' : 'embedded'}; ${concurrency} requests in flight`);
    console.log(line('subscribe', create));
    console.log(line('push', push));
  } finally {
    await gw.close();
    await sim.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
