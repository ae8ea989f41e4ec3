/**
 * `npm run bench:cpu [-- --only a,b --requests N --in-flight K --quick --profile]`: the gateway's CPU and SQL
 * statements per request, through REST and through GraphQL (the calls `npm run bench` makes), measured in one process (the gateway and a keep-alive client), on
 * the bench dataset (`<database>_bench_cpu`, prepared like `npm run bench` prepares its own).
 * The bare server (bench/servers/baseline.ts, its own process) answers the same calls from the
 * same client in the same minutes: its CPU per request is its process's plus the client's, so
 * the ratio to it compares like with like.
 *
 * A figure that holds on a shared machine, where the req/s and p99 of `npm run bench` swing with
 * what else runs: CPU time is the process's own (`process.cpuUsage`, the client's share included
 * and the same for every tree), statements are counted at the `pg` driver (the relay's and the
 * webhook worker's included, since they are part of what a write costs), and so are the
 * transactions opened and the relay's passes, with those of them that found nothing to relay (a
 * pass is a transaction whatever it finds). Compare trees by running
 * this alternately in the same minute. Scenario keys are those of bench/scenarios.ts.
 */
import 'reflect-metadata';
import { Agent, request } from 'node:http';
import { Session } from 'node:inspector';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { summarizeProfile } from './profile-summary';
import { ServerProcess } from './child';
import { Client } from 'pg';
import { createGateway } from '../src/app';
import { RELAY_BATCH } from '../src/events/relay';
import { systemClock } from '../src/common/clock';
import { logger } from '../src/common/logger';
import { productionEnv } from './production-env';
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
  quick: boolean;
  /** A CPU profile of each measured run (not the warm-up or the dataset), its self-time summary printed. */
  profile: boolean;
}

function parseArgs(argv: string[]): Options {
  const opts: Options = { only: null, requests: 2_000, inFlight: 4, quick: false, profile: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--quick') {
      // The smoke run: a small dataset of its own and a few requests per door.
      Object.assign(opts, { quick: true, requests: 20 });
      continue;
    }
    if (argv[i] === '--profile') {
      opts.profile = true;
      continue;
    }
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
  const url = sibling(admin, opts.quick ? 'bench_cpu_quick' : 'bench_cpu');
  const size = opts.quick ? { orders: 2_000, navs: 200 } : { orders: 10_000, navs: 1_000 };
  await prepareDatabase({ kind: 'server', url }, size, (line) => process.stderr.write(`${line}\n`));

  const config = loadConfig({ ...productionEnv(), ...process.env, DATABASE_URL: url, APP_ENV: 'production' });
  const db = await openDatabase({ databaseUrl: url, dataDir: null, poolMax: config.dbPoolMax, clock: systemClock });
  logger.level = 'warn';
  const gateway = await createGateway({ config, orm: db.orm, clock: systemClock });
  const port = await gateway.listen(0, '127.0.0.1');
  const baseline = await ServerProcess.start('baseline', 'baseline.js', {
    BENCH_DATABASE_URL: url,
    DB_POOL_MAX: String(config.dbPoolMax),
    NODE_ENV: process.env.NODE_ENV || 'production',
  });

  const counts = { statements: 0, transactions: 0, relayPasses: 0, emptyRelayPasses: 0 };
  // eslint-disable-next-line @typescript-eslint/unbound-method -- kept only to be called back with .apply(this) below
  const query = Client.prototype.query;
  Client.prototype.query = function (this: Client, ...args: unknown[]) {
    counts.statements++;
    const text = statementText(args[0]);
    if (/^begin\b/i.test(text)) counts.transactions++;
    if (text.startsWith(RELAY_PASS)) {
      counts.relayPasses++;
      // A pass that found nothing was a transaction for nothing. knex calls back, rawRows awaits.
      const found = (r: { rowCount: number | null } | undefined) => r?.rowCount === 0 && counts.emptyRelayPasses++;
      const last = args.length - 1;
      if (typeof args[last] === 'function') {
        const callback = args[last] as (err: unknown, r?: { rowCount: number | null }) => void;
        args[last] = (err: unknown, r?: { rowCount: number | null }) => (err || found(r), callback(err, r));
      }
      const result = (query as (...a: unknown[]) => unknown).apply(this, args);
      if (result instanceof Promise) void result.then(found, () => undefined);
      return result;
    }
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof Client.prototype.query;

  const agent = new Agent({ keepAlive: true, maxSockets: opts.inFlight });
  let seq = 0;
  const send = (port: number, call: HttpCall, index: number) =>
    new Promise<void>((resolve, reject) => {
      const { path, body } = call.requests[index % call.requests.length];
      const payload = body?.split(SEQ).join(`cpu${seq++}`);
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method: call.method,
          path,
          agent,
          headers: { ...call.headers, ...(payload ? { 'content-length': Buffer.byteLength(payload) } : {}) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            res.statusCode === 200
              ? resolve()
              : reject(new Error(`${call.method} ${path}: ${res.statusCode} ${Buffer.concat(chunks).toString('utf8').slice(0, 300)}`)),
          );
        },
      );
      req.on('error', reject);
      req.end(payload);
    });

  // The very calls `npm run bench` makes, to the gateway and to the bare server.
  const navAt = await lastNavAt(url);
  const introspection = introspectionFromSchema(gatewaySchema());
  const ports = { baseline: baseline.port, gateway: port };
  const scenarios = [
    ...(await planScenarios(ports, { orders: size.orders, scale: false, lastNavAt: navAt }, introspection)),
    // The scale run's scenarios the main run lacks (NAV history).
    ...(await planScenarios(ports, { orders: size.orders, scale: true, lastNavAt: navAt }, introspection)),
  ];
  const rows: string[] = [
    '| Scenario | Door | CPU µs/request (client included) | × bare server | SQL statements/request | transactions/request | relay passes/request (found nothing) | req/s |',
    '|---|---|---|---|---|---|---|---|',
  ];
  const done = new Set<string>();
  const profiler = windowProfiler();
  const profiles: string[] = [];
  for (const scenario of scenarios) {
    if ((opts.only && !opts.only.includes(scenario.key)) || done.has(scenario.key)) continue;
    done.add(scenario.key);
    let bare: number | null = null;
    for (const door of ['baseline', 'rest', 'graphql'] as const) {
      const plan = scenario.plans[door];
      if (plan.state !== 'ready') continue;
      const target = door === 'baseline' ? baseline.port : port;
      let next = 0;
      const run = async (n: number) => {
        let started = 0;
        await Promise.all(
          Array.from({ length: opts.inFlight }, async () => {
            while (started++ < n) await send(target, plan.call, next++);
          }),
        );
      };
      await run(Math.min(300, opts.requests * 3));
      const profiled = opts.profile && door !== 'baseline';
      if (profiled) await profiler.start();
      Object.assign(counts, { statements: 0, transactions: 0, relayPasses: 0, emptyRelayPasses: 0 });
      const child0 = door === 'baseline' ? (await baseline.cpu()).micros : 0;
      const cpu0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      await run(opts.requests);
      const cpu = process.cpuUsage(cpu0);
      const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
      const child = door === 'baseline' ? (await baseline.cpu()).micros - child0 : 0;
      const micros = (cpu.user + cpu.system + child) / opts.requests;
      if (door === 'baseline') bare = micros;
      if (profiled) profiles.push(`### ${scenario.title}, ${door}\n\n${await profiler.stop(`cpu-${scenario.key}-${door}`, micros)}`);
      const ratio = door !== 'baseline' && bare ? `${(micros / bare).toFixed(1)}×` : '';
      // The bare server's statements are its own pool's, not counted at this process's driver.
      const per = (n: number) => (door === 'baseline' ? '' : (n / opts.requests).toFixed(1));
      const relay = door === 'baseline' ? '' : `${per(counts.relayPasses)} (${per(counts.emptyRelayPasses)})`;
      rows.push(
        `| ${scenario.title} | ${door} | ${Math.round(micros).toLocaleString('en-US')} | ${ratio} | ${per(counts.statements)} | ${per(counts.transactions)} | ${relay} | ${Math.round(opts.requests / seconds).toLocaleString('en-US')} |`,
      );
      process.stderr.write(`${rows[rows.length - 1]}\n`);
    }
  }
  process.stdout.write(`\n${opts.requests} requests per scenario, ${opts.inFlight} in flight\n\n${rows.join('\n')}\n`);
  if (profiles.length) process.stdout.write(`\n${profiles.join('\n\n')}\n`);
  agent.destroy();
  await baseline.stop();
  await gateway.close();
  await db.close();
}

/**
 * The inspector's CPU profiler around the measured requests only (the process's start, the dataset
 * and the warm-up left out), each profile written to bench/results/<name>.cpuprofile.
 */
function windowProfiler() {
  const session = new Session();
  session.connect();
  const post = <T>(method: string, params?: object) =>
    new Promise<T>((resolve, reject) => session.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res as T))));
  return {
    async start() {
      await post('Profiler.enable');
      await post('Profiler.setSamplingInterval', { interval: 200 });
      await post('Profiler.start');
    },
    async stop(name: string, microsPerRequest: number): Promise<string> {
      const { profile } = await post<{ profile: object }>('Profiler.stop');
      const dir = join(__dirname, '..', '..', 'bench', 'results');
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `${name}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      return summarizeProfile(file, 12, microsPerRequest);
    },
  };
}

/** The relay's batch statement, one per pass, as the driver sees it: up to its first `?`, which rawRows numbers. */
const RELAY_PASS = RELAY_BATCH.slice(0, RELAY_BATCH.indexOf('?'));

/** A statement's text as pg's `query` takes it: a string or a config object. */
function statementText(arg: unknown): string {
  if (typeof arg === 'string') return arg;
  const text = (arg as { text?: unknown } | null)?.text;
  return typeof text === 'string' ? text : '';
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
