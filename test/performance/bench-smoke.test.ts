import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { serverUrl } from '../support/database';
import { requiredRedis } from '../support/redis';

/**
 * Every bench script starts as shipped and prints its table (`--quick`: small sizes, seconds).
 * No figure is asserted, only that none silently stopped working (issue 33: `bench:cpu` once
 * stopped starting when production came to require the metrics token). Runs the built scripts
 * (`npm test` builds first), each with the environment it sets itself.
 */
const DIST = join(__dirname, '..', '..', 'dist', 'bench');
const onServer = serverUrl() ? describe : describe.skip;

function runBench(script: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const full: NodeJS.ProcessEnv = { ...process.env, ...env };
  // The bench decides its own APP_ENV: the suite's `test` must not leak into a production measurement.
  delete full.APP_ENV;
  delete full.NODE_OPTIONS;
  const child = spawn(process.execPath, [join(DIST, script), ...args], { env: full, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

function expectRan(r: { code: number | null; stdout: string; stderr: string }) {
  if (r.code !== 0) throw new Error(`exit ${r.code}\n${r.stderr.slice(-3000)}\n${r.stdout.slice(-2000)}`);
}

beforeAll(() => {
  if (!existsSync(join(DIST, 'cpu.js'))) throw new Error('dist/bench is missing: build first (npx tsc -p .)');
});

onServer('bench scripts start and print their tables in --quick', () => {
  test('bench:cpu (production, in process)', async () => {
    const r = await runBench('cpu.js', ['--quick', '--only', 'shareclass,order-by-id,orders-list']);
    expectRan(r);
    expect(r.stdout).toMatch(/\| GET \/funds\/shareclass\/:id \| baseline \| [\d,]+ \|/);
    // CPU, × bare server, statements, transactions, relay passes (those that found nothing), req/s.
    expect(r.stdout).toMatch(/\| GET \/funds\/shareclass\/:id \| rest \| [\d,]+ \| [\d.]+× \| [\d.]+ \| [\d.]+ \| [\d.]+ \([\d.]+\) \| [\d,]+ \|/);
    expect(r.stdout).toMatch(/\| GET \/orders\/:id \| graphql \|/);
  }, 600_000);

  test('bench (baseline, rest and graphql contenders, production gateway)', async () => {
    const r = await runBench('run.js', ['--quick', '--only', 'shareclass,order-by-id']);
    expectRan(r);
    expect(r.stdout + r.stderr).toMatch(/\| GET \/orders\/:id \| rest \| [\d,]+/);
    expect(r.stdout + r.stderr).not.toMatch(/failed/);
  }, 600_000);

  test('bench:events (child gateway, APP_ENV=test with production keys, webhooks and a subscription)', async () => {
    const r = await runBench('event-latency.js', ['--quick']);
    expectRan(r);
    const result = JSON.parse(r.stdout.slice(r.stdout.indexOf('{')));
    expect(result.events).toBe(20);
    expect(result.webhookFirstAttemptMs.n).toBeGreaterThan(0);
    expect(result.subscriptionMessageMs.n).toBeGreaterThan(0);
    expect(result.gatewayCpuPerEventUs).toBeGreaterThan(0);
  }, 300_000);

  test('bench:subscribers (two gateways, APP_ENV=test with production keys, over Redis)', async () => {
    const redis = await requiredRedis();
    const r = await runBench('subscribers.js', ['--quick'], { REDIS_URL: redis });
    expectRan(r);
    expect(r.stdout).toMatch(/p99/);
  }, 300_000);

  test('bench:settlement (test gateway on the embedded chain)', async () => {
    const r = await runBench('settlement.js', ['--quick'], { APP_ENV: 'test' });
    expectRan(r);
    expect(r.stdout).toMatch(/dealing/i);
  }, 600_000);

  test('bench:distribution (a reinvest distribution on the embedded chain)', async () => {
    const r = await runBench('distribution.js', ['--quick'], { APP_ENV: 'test' });
    expectRan(r);
    expect(r.stdout).toMatch(/gas per holder/);
  }, 600_000);

  test('bench:nav-correction (a NAV correction compensating settled orders on the embedded chain)', async () => {
    const r = await runBench('nav-correction.js', ['--quick'], { APP_ENV: 'test' });
    expectRan(r);
    expect(r.stdout).toMatch(/gas per order/);
  }, 600_000);

  test('bench:token-deploy (tokens deployed on the embedded chain)', async () => {
    const r = await runBench('token-deploy.js', ['--quick'], { APP_ENV: 'test' });
    expectRan(r);
    expect(r.stdout).toMatch(/per token: [\d.]+ transactions/);
  }, 600_000);
});

test('bench:ws-floor (no gateway)', async () => {
  const r = await runBench('ws-floor.js', ['--quick']);
  expectRan(r);
  expect(r.stdout).toMatch(/50 sockets, 1 s: [\d,]+ messages sent/);
}, 60_000);
