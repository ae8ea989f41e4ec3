/**
 * `npm run bench [-- options]`: the gateway's REST facade and GraphQL endpoint measured side by
 * side with a bare node:http + pg baseline, in alternating rounds of one run, on a dataset it
 * seeds itself. A measurement, never a gate: it fails only when a contender answers wrongly.
 *
 *   --quick             small dataset, one short round per contender (about a minute: warm-ups of 0.25 s)
 *   --orders N --navs N dataset size (default 10,000 orders, 1,000 NAVs on the hot share class)
 *   --rounds R --duration S --warmup S --warmup-requests N --connections C
 *                       (default 3 rounds of 5 s, warm-up 3 s and at least 1,000 requests, 32 connections)
 *   --only a,b          scenario keys: shareclass, nav-live, order-by-id, subscribe (two-step),
 *                       subscribe-1 and redeem-1 (one-step, surface R), orders-list (the distributor's),
 *                       orders-list-investor, orders-page (GraphQL only), nav-history-100, nav-history-day
 *   --scale             1,000,000 orders / 100,000 NAVs against 10,000 / 1,000: p99 compared, on the
 *                       scenarios whose cost may grow with the book (order-by-id, the three writes,
 *                       both lists, NAV history)
 *
 * Live updates at scale (graphql-ws subscribers over two instances and Redis) are bench/subscribers.ts
 * (`npm run bench:subscribers`); webhook and single-subscriber latency bench/event-latency.ts.
 *   --profile           the gateway runs under --cpu-prof; a self-time summary is printed
 *   --docs              writes the figures into docs/benchmarks.md (between its markers)
 */
import { readdirSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../src/persistence/embedded-postgres';
import { ServerProcess } from './child';
import { databaseEnv, HOT_SHARE_CLASS, pgConfig, prepareDatabase, sibling, type BenchDatabase, type DatasetSize } from './dataset';
import { drive, warmUp, type Sample } from './load';
import { summarizeProfile } from './profile-summary';
import {
  machineLine,
  markdownReport,
  markdownTable,
  median,
  scaleTable,
  updateDocs,
  writeResults,
  type ContenderResult,
  type Machine,
  type RunReport,
  type ScaleComparison,
  type ScenarioResult,
} from './report';
import { CONTENDERS, planScenarios, type ContenderName, type HttpCall, type Plan, type Scenario } from './scenarios';

const ROOT = resolve(__dirname, '..', '..');
const RESULTS = join(ROOT, 'bench', 'results');
const DOCS = join(ROOT, 'docs', 'benchmarks.md');

interface Options {
  quick: boolean;
  scale: boolean;
  profile: boolean;
  docs: boolean;
  orders: number;
  navs: number;
  rounds: number;
  duration: number;
  warmup: number;
  warmupRequests: number;
  connections: number;
  only: string[] | null;
}

function parseArgs(argv: string[]): Options {
  const flags = new Set<string>();
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) throw new Error(`unexpected argument ${a}`);
    const [k, inline] = a.slice(2).split('=', 2);
    if (['quick', 'scale', 'profile', 'docs'].includes(k)) flags.add(k);
    else if (['orders', 'navs', 'rounds', 'duration', 'warmup', 'warmup-requests', 'connections', 'only'].includes(k)) values.set(k, inline ?? argv[++i]);
    else throw new Error(`unknown option --${k}`);
  }
  const quick = flags.has('quick');
  const num = (k: string, fallback: number) => {
    const v = values.get(k);
    if (v === undefined) return fallback;
    const n = Number(v.replace(/_/g, ''));
    if (!Number.isFinite(n) || n <= 0) throw new Error(`--${k} must be a positive number`);
    return n;
  };
  return {
    quick,
    scale: flags.has('scale'),
    profile: flags.has('profile'),
    docs: flags.has('docs'),
    orders: Math.floor(num('orders', quick ? 2_000 : 10_000)),
    navs: Math.floor(num('navs', quick ? 200 : 1_000)),
    rounds: Math.floor(num('rounds', quick ? 1 : 3)),
    duration: num('duration', quick ? 1 : 5),
    warmup: num('warmup', quick ? 0.25 : 3),
    warmupRequests: Math.floor(num('warmup-requests', quick ? 50 : 1_000)),
    connections: Math.floor(num('connections', 32)),
    only:
      values
        .get('only')
        ?.split(',')
        .map((s) => s.trim()) ?? null,
  };
}

const T0 = Date.now();
const log = (line: string) => process.stderr.write(`[bench ${((Date.now() - T0) / 1000).toFixed(1).padStart(5)}s] ${line}\n`);

/** The bench database: `<DATABASE_URL's database>_<suffix>` on that server, else the embedded one. */
async function openTarget(suffix: string): Promise<{ target: BenchDatabase; close: () => Promise<void> }> {
  const url = process.env.DATABASE_URL?.trim();
  if (url) return { target: { kind: 'server', url: sibling(url, suffix) }, close: async () => undefined };
  log('WARNING: DATABASE_URL is not set: using the embedded PostgreSQL (PGlite, one statement at a time).');
  log('WARNING: these numbers are NOT comparable with a PostgreSQL server; set DATABASE_URL for real figures.');
  // Both servers and the load generator share it: room for their pools.
  const embedded: EmbeddedPostgres = await startEmbeddedPostgres(null, 64);
  return { target: { kind: 'embedded', socket: embedded.connection }, close: () => embedded.stop() };
}

async function machine(target: BenchDatabase): Promise<Machine> {
  const c = new Client(pgConfig(target));
  await c.connect();
  const version = (await c.query<{ v: string }>('select version() as v')).rows[0].v;
  await c.end();
  return {
    nproc: cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    postgres: target.kind === 'embedded' ? `PGlite (${version.split(' on ')[0]})` : version.split(' on ')[0],
    loadAverage: loadavg(),
    database: target.kind,
  };
}

async function lastNavAt(target: BenchDatabase): Promise<number> {
  const c = new Client(pgConfig(target));
  await c.connect();
  const r = await c.query<{ at: Date }>('select max(published_at) as at from nav where share_class_id = $1', [HOT_SHARE_CLASS]);
  await c.end();
  return r.rows[0].at.getTime();
}

/**
 * The planner's statistics as autovacuum keeps them in a deployment. The write scenarios place
 * ~100,000 orders in minutes, faster than autovacuum's thresholds and naptime; a later scenario
 * planned on the figures of the table before them measures stale statistics (an investor's list
 * took 7.6 ms instead of 0.14), for the baseline and the gateway alike, not either of them.
 */
async function analyze(target: BenchDatabase): Promise<void> {
  const c = new Client(pgConfig(target));
  await c.connect();
  try {
    await c.query('analyze');
  } finally {
    await c.end();
  }
}

/** One dataset with its own pair of servers. */
interface Arm {
  label: string;
  target: BenchDatabase;
  size: DatasetSize;
}

interface LiveArm extends Arm {
  servers: Record<ContenderName, ServerProcess>;
  plans: Scenario[];
}

/**
 * Starts a baseline and a gateway per arm (dataset), probes, then measures every scenario in
 * rounds; within a round every (arm, contender) pair runs once, in an order that rotates from
 * round to round, so drift on a shared machine (other builds, a growing table) is spread over
 * all of them instead of landing on one. Scale mode has two arms (10,000 and 1,000,000 orders).
 */
async function measure(arms: Arm[], opts: Options, scale: boolean): Promise<ScenarioResult[][]> {
  const profileDir = join(RESULTS, 'profiles');
  const started = Date.now();
  const live: LiveArm[] = [];
  try {
    for (const arm of arms) {
      // Both servers run as deployed: NODE_ENV=production (graphql-js and express drop their development checks).
      const env = { ...databaseEnv(arm.target), NODE_ENV: process.env.NODE_ENV || 'production' };
      const [baseline, gateway] = await Promise.all([
        ServerProcess.start('baseline', 'baseline.js', env),
        ServerProcess.start('gateway', 'gateway.js', env, opts.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
      ]);
      const servers: Record<ContenderName, ServerProcess> = { baseline, rest: gateway, graphql: gateway };
      live.push({ ...arm, servers, plans: [] });
      const introspection = (await gateway.introspection()) as never;
      let plans = await planScenarios(
        { baseline: baseline.port, gateway: gateway.port },
        { orders: arm.size.orders, scale, lastNavAt: await lastNavAt(arm.target) },
        introspection,
      );
      if (opts.only) plans = plans.filter((p) => opts.only!.includes(p.key));
      live[live.length - 1].plans = plans;
    }
    const out: ScenarioResult[][] = live.map(() => []);
    const tag = (i: number) => (live.length > 1 ? `[${live[i].label}] ` : '');
    for (const key of live[0].plans.map((p) => p.key)) {
      const results = live.map((arm) => {
        const sc = arm.plans.find((p) => p.key === key)!;
        return new Map<ContenderName, ContenderResult>(
          CONTENDERS.map((c) => {
            const p = sc.plans[c];
            return [
              c,
              {
                contender: c,
                state: p.state,
                reason: 'reason' in p ? p.reason : undefined,
                bytes: p.state === 'ready' ? p.bytes : undefined,
                rounds: [],
                ratios: [],
              },
            ];
          }),
        );
      });
      const units: { arm: number; contender: ContenderName }[] = [];
      live.forEach((arm, i) => {
        const sc = arm.plans.find((p) => p.key === key)!;
        for (const c of CONTENDERS) {
          const plan = sc.plans[c];
          if (plan.state === 'ready') units.push({ arm: i, contender: c });
          else if (plan.state !== 'n/a') log(`${tag(i)}${key} / ${c}: ${plan.state}: ${plan.reason}`);
        }
      });
      const planOf = (u: { arm: number; contender: ContenderName }) => callOf(live[u.arm].plans.find((p) => p.key === key)!.plans[u.contender]);
      if (units.length) {
        for (const arm of live) await analyze(arm.target);
        log(`${key}: ${units.map((u) => `${tag(u.arm)}${u.contender}`).join(', ')}`);
        for (const u of units) await warmUp(live[u.arm].servers[u.contender], planOf(u), opts.connections, opts.warmup, opts.warmupRequests);
        for (let round = 0; round < opts.rounds; round++) {
          const order = units.map((_, i) => units[(i + round) % units.length]);
          const samples = live.map(() => new Map<ContenderName, Sample>());
          for (const u of order) {
            let s = await drive(live[u.arm].servers[u.contender], planOf(u), opts.connections, opts.duration);
            // Fewer answers than connections says nothing (a quick round of 1 s against answers that
            // take seconds under load counts zero): measured again by count, two answers a connection.
            if (s.requests < opts.connections) s = await drive(live[u.arm].servers[u.contender], planOf(u), opts.connections, 600, 2 * opts.connections);
            samples[u.arm].set(u.contender, s);
            results[u.arm].get(u.contender)!.rounds.push(s);
            log(
              `  round ${round + 1} ${tag(u.arm)}${u.contender.padEnd(8)} ${Math.round(s.rps).toString().padStart(6)} req/s  p50 ${s.p50} ms  p99 ${s.p99} ms  ${Math.round(s.cpuPerRequest)} µs CPU/req${s.non2xx || s.errors ? `  NON-2XX ${s.non2xx} ERRORS ${s.errors}` : ''}`,
            );
          }
          samples.forEach((m, i) => {
            const base = m.get('baseline');
            if (base) for (const [c, s] of m) if (c !== 'baseline') results[i].get(c)!.ratios.push(s.rps / base.rps);
          });
        }
      }
      live.forEach((arm, i) => {
        const sc = arm.plans.find((p) => p.key === key)!;
        out[i].push({ key, title: sc.title, shapeNotes: sc.shapeNotes, contenders: [...results[i].values()] });
      });
    }
    return out;
  } finally {
    await Promise.all(live.flatMap((arm) => [arm.servers.baseline.stop(), arm.servers.rest.stop()]));
    log(`servers stopped after ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
}

function callOf(plan: Plan): HttpCall {
  if (plan.state !== 'ready') throw new Error('not ready');
  return plan.call;
}

function latestProfile(): string | undefined {
  const dir = join(RESULTS, 'profiles');
  try {
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.cpuprofile'))
      .sort();
    return files.length ? join(dir, files[files.length - 1]) : undefined;
  } catch {
    return undefined;
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const startedAt = new Date().toISOString();
  const stamp = startedAt.replace(/[:.]/g, '-');
  const settings = {
    orders: opts.orders,
    navs: opts.navs,
    rounds: opts.rounds,
    duration: `${opts.duration}s`,
    warmup: `${opts.warmup}s and ${opts.warmupRequests} requests`,
    connections: opts.connections,
  };
  let failed: boolean;

  if (!opts.scale) {
    const { target, close } = await openTarget('bench');
    try {
      await prepareDatabase(target, { orders: opts.orders, navs: opts.navs }, log);
      const m = await machine(target);
      const [scenarios] = await measure([{ label: 'main', target, size: { orders: opts.orders, navs: opts.navs } }], opts, false);
      const report: RunReport = { startedAt, mode: opts.quick ? 'quick' : 'full', settings, machine: m, scenarios };
      let body = markdownTable(report);
      const profile = opts.profile ? latestProfile() : undefined;
      if (profile) body += `\n\n## Gateway CPU profile (${profile})\n\n${summarizeProfile(profile)}`;
      const md = markdownReport(report, body);
      const files = writeResults(RESULTS, `${stamp}-${report.mode}`, report, md);
      process.stdout.write(`\n${machineLine(m)}\n\n${markdownTable(report)}\n\nWritten: ${files.join(', ')}\n`);
      if (opts.docs) {
        const ok = updateDocs(
          DOCS,
          'results',
          `Run ${startedAt} (${report.mode}; ${Object.entries(settings)
            .map(([k, v]) => `${k}=${v}`)
            .join(', ')})\n\nMachine: ${machineLine(m)}\n\n${markdownTable(report)}`,
        );
        log(ok ? `updated ${DOCS}` : `could not find the results markers in ${DOCS}`);
      }
      failed = scenarios.some((s) => s.contenders.some((c) => c.state === 'failed' || c.rounds.some((r) => r.non2xx > 0 || r.errors > 0)));
    } finally {
      await close();
    }
  } else {
    const sizes: { label: string; suffix: string; size: DatasetSize }[] = [
      { label: '10,000 orders / 1,000 NAVs', suffix: 'bench_scale_s', size: { orders: 10_000, navs: 1_000 } },
      {
        label: `${opts.orders > 10_000 ? opts.orders.toLocaleString('en-US') : '1,000,000'} orders / ${opts.navs > 1_000 ? opts.navs.toLocaleString('en-US') : '100,000'} NAVs`,
        suffix: 'bench_scale_l',
        size: { orders: opts.orders > 10_000 ? opts.orders : 1_000_000, navs: opts.navs > 1_000 ? opts.navs : 100_000 },
      },
    ];
    let m: Machine | null = null;
    const opened: { target: BenchDatabase; close: () => Promise<void> }[] = [];
    let measured: ScenarioResult[][];
    try {
      for (const s of sizes) {
        const db = await openTarget(s.suffix);
        opened.push(db);
        log(`scale: preparing ${s.label}`);
        await prepareDatabase(db.target, s.size, log);
        m ??= await machine(db.target);
      }
      measured = await measure(
        sizes.map((s, i) => ({ label: s.size.orders.toLocaleString('en-US'), target: opened[i].target, size: s.size })),
        opts,
        true,
      );
    } finally {
      for (const db of opened) await db.close();
    }
    const comparisons: ScaleComparison[] = [];
    for (const sc of measured[0]) {
      const large = measured[1].find((x) => x.key === sc.key);
      for (const c of sc.contenders) {
        if (c.state === 'n/a') continue;
        const l = large?.contenders.find((x) => x.contender === c.contender);
        const p = (r?: ContenderResult) => (r && r.rounds.length ? median(r.rounds.map((x) => x.p99)) : null);
        const cpu = (r?: ContenderResult) => (r && r.rounds.length ? median(r.rounds.map((x) => x.cpuPerRequest)) : null);
        const a = p(c);
        const b = p(l);
        comparisons.push({
          key: sc.key,
          title: sc.title,
          contender: c.contender,
          smallP99: a,
          largeP99: b,
          ratio: a && b ? b / a : null,
          smallCpu: cpu(c),
          largeCpu: cpu(l),
        });
      }
    }
    const report: RunReport = { startedAt, mode: 'scale', settings, machine: m!, scenarios: measured[1], smallScenarios: measured[0], scale: comparisons };
    const table = scaleTable(comparisons, sizes[0].label, sizes[1].label);
    const md = markdownReport(report, `${table}\n\nAt ${sizes[1].label}:\n\n${markdownTable(report)}`);
    const files = writeResults(RESULTS, `${stamp}-scale`, report, md);
    process.stdout.write(`\n${machineLine(m!)}\n\n${table}\n\nWritten: ${files.join(', ')}\n`);
    if (opts.docs) {
      const ok = updateDocs(
        DOCS,
        'scale',
        `Run ${startedAt} (${Object.entries(settings)
          .map(([k, v]) => `${k}=${v}`)
          .join(', ')})\n\nMachine: ${machineLine(m!)}\n\n${table}`,
      );
      log(ok ? `updated ${DOCS}` : `could not find the scale markers in ${DOCS}`);
    }
    failed = measured.flat().some((s) => s.contenders.some((c) => c.state === 'failed' || c.rounds.some((r) => r.non2xx > 0 || r.errors > 0)));
  }
  if (failed) {
    log('some contender answered wrongly (see "failed" or non-2xx above): exit code 1');
    process.exitCode = 1;
  }
}

main().catch((err) => {
  process.stderr.write(`[bench] ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
