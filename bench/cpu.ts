/**
 * `npm run bench:cpu [-- --only a,b --requests N --in-flight K]`: the gateway's CPU and SQL
 * statements per request, through REST and through GraphQL (the calls `npm run bench` makes), measured in one process (the gateway and a keep-alive client), on
 * the bench dataset (`<database>_bench_cpu`, prepared like `npm run bench` prepares its own).
 *
 * A figure that holds on a shared machine, where the req/s and p99 of `npm run bench` swing with
 * what else runs: CPU time is the process's own (`process.cpuUsage`, the client's share included
 * and the same for every tree), statements are counted at the `pg` driver (the relay's and the
 * webhook worker's included, since they are part of what a write costs). Compare trees by running
 * this alternately in the same minute. Scenario keys are those of bench/scenarios.ts.
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { Client } from 'pg';
import { createGateway } from '../src/app';
import { systemClock } from '../src/common/clock';
import { logger } from '../src/common/logger';
import { BENCH_QUOTAS } from './quotas';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/boot/orm';
import { introspectionFromSchema } from 'graphql';
import { gatewaySchema } from '../src/transports/graphql/schema';
import { HOT_SHARE_CLASS, prepareDatabase, sibling } from './dataset';
import { planScenarios, SEQ, type HttpCall } from './scenarios';

interface Options {
  only: string[] | null;
  requests: number;
  inFlight: number;
}

function parseArgs(argv: string[]): Options {
  const opts: Options = { only: null, requests: 2_000, inFlight: 4 };
  for (let i = 0; i < argv.length; i++) {
    const [k, inline] = argv[i].replace(/^--/, '').split('=', 2);
    const v = inline ?? argv[++i];
    if (k === 'only') opts.only = v.split(',').map((s) => s.trim());
    else if (k === 'requests') opts.requests = Math.max(1, Number(v));
    else if (k === 'in-flight') opts.inFlight = Math.max(1, Number(v));
    else throw new Error(`unknown option --${k}`);
  }
  return opts;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const admin = process.env.DATABASE_URL?.trim();
  if (!admin) throw new Error('DATABASE_URL is required: the figures are for a PostgreSQL server');
  const url = sibling(admin, 'bench_cpu');
  const size = { orders: 10_000, navs: 1_000 };
  await prepareDatabase({ kind: 'server', url }, size, (line) => process.stderr.write(`${line}\n`));

  const config = loadConfig({
    JWT_SIGNING_KEY: `bench-only-${randomBytes(24).toString('hex')}`,
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
    METRICS_TOKEN: randomBytes(24).toString('hex'),
    ...BENCH_QUOTAS,
    ...process.env,
    DATABASE_URL: url,
    APP_ENV: 'production',
  });
  const db = await openDatabase({ databaseUrl: url, dataDir: null, poolMax: config.dbPoolMax, clock: systemClock });
  logger.level = 'warn';
  const gateway = await createGateway({ config, orm: db.orm, clock: systemClock });
  const port = await gateway.listen(0, '127.0.0.1');

  let statements = 0;
  const query = Client.prototype.query;
  Client.prototype.query = function (this: Client, ...args: unknown[]) {
    statements++;
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof Client.prototype.query;

  const agent = new Agent({ keepAlive: true, maxSockets: opts.inFlight });
  let seq = 0;
  const send = (call: HttpCall, index: number) =>
    new Promise<void>((resolve, reject) => {
      const { path, body } = call.requests[index % call.requests.length];
      const payload = body?.split(SEQ).join(`cpu${seq++}`);
      const req = request({ host: '127.0.0.1', port, method: call.method, path, agent, headers: { ...call.headers, ...(payload ? { 'content-length': Buffer.byteLength(payload) } : {}) } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${call.method} ${path}: ${res.statusCode} ${Buffer.concat(chunks).toString('utf8').slice(0, 300)}`))));
      });
      req.on('error', reject);
      req.end(payload);
    });

  // The very calls `npm run bench` makes (the baseline's plans are ignored: none runs here).
  const navAt = await lastNavAt(url);
  const introspection = introspectionFromSchema(gatewaySchema());
  const scenarios = [
    ...(await planScenarios({ baseline: port, gateway: port }, { orders: size.orders, scale: false, lastNavAt: navAt }, introspection)),
    // The scale run's scenarios the main run lacks (NAV history).
    ...(await planScenarios({ baseline: port, gateway: port }, { orders: size.orders, scale: true, lastNavAt: navAt }, introspection)),
  ];
  const rows: string[] = ['| Scenario | Door | CPU µs/request (client included) | SQL statements/request | req/s |', '|---|---|---|---|---|'];
  const done = new Set<string>();
  for (const scenario of scenarios) {
    if ((opts.only && !opts.only.includes(scenario.key)) || done.has(scenario.key)) continue;
    done.add(scenario.key);
    for (const door of ['rest', 'graphql'] as const) {
      const plan = scenario.plans[door];
      if (plan.state !== 'ready') continue;
      let next = 0;
      const run = async (n: number) => {
        let started = 0;
        await Promise.all(
          Array.from({ length: opts.inFlight }, async () => {
            while (started++ < n) await send(plan.call, next++);
          }),
        );
      };
      await run(Math.min(300, opts.requests));
      statements = 0;
      const cpu0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      await run(opts.requests);
      const cpu = process.cpuUsage(cpu0);
      const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
      rows.push(`| ${scenario.title} | ${door} | ${Math.round((cpu.user + cpu.system) / opts.requests).toLocaleString('en-US')} | ${(statements / opts.requests).toFixed(1)} | ${Math.round(opts.requests / seconds).toLocaleString('en-US')} |`);
      process.stderr.write(`${rows[rows.length - 1]}\n`);
    }
  }
  process.stdout.write(`\n${opts.requests} requests per scenario, ${opts.inFlight} in flight\n\n${rows.join('\n')}\n`);
  agent.destroy();
  await gateway.close();
  await db.close();
}

async function lastNavAt(url: string): Promise<number> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query<{ at: Date }>('select max(published_at) as at from nav where share_class_id = $1', [HOT_SHARE_CLASS]);
    return r.rows[0].at.getTime();
  } finally {
    await c.end();
  }
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
