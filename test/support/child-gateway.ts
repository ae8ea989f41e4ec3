import { spawn, type ChildProcess } from 'node:child_process';
import { basename, join } from 'node:path';

/** The project's root, whether this runs from source (jest) or built (dist/, the benchmark). */
const ROOT = basename(join(__dirname, '..', '..')) === 'dist' ? join(__dirname, '..', '..', '..') : join(__dirname, '..', '..');

/** The built gateway (`npm run build`), started as its own process as `npm start` would. */
export const MAIN = join(ROOT, 'dist', 'src', 'main.js');

/** Drills write from one address far faster than a distributor would (test/support/gateway.ts: GENEROUS_QUOTAS). */
const SUITE_QUOTAS = {
  QUOTA_WRITES: '1000000',
  QUOTA_SOCKETS_PER_PRINCIPAL: '10000',
  QUOTA_SOCKETS_PER_ADDRESS: '10000',
  QUOTA_SUBSCRIPTIONS_PER_PRINCIPAL: '10000',
  QUOTA_SUBSCRIPTIONS_PER_ADDRESS: '10000',
};

export interface ChildGateway {
  child: ChildProcess;
  port: number;
  output: () => string;
}

/**
 * What `npm start` runs on a machine with nothing installed: development, on the embedded
 * database and chain, both kept in `dataDir`, with the demo data.
 */
export const npmStartEnv = (dataDir: string): Record<string, string | undefined> => ({
  DATA_DIR: dataDir,
  CHAIN_DATA_DIR: join(dataDir, 'anvil'),
  APP_ENV: 'development',
  SEED_DEMO: undefined,
  DATABASE_URL: undefined,
  CHAINS: undefined,
});

/** `env` overrides the test environment; an `undefined` value removes a variable (e.g. DATABASE_URL). */
export function startChildGateway(env: Record<string, string | undefined>): Promise<ChildGateway> {
  const full = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    APP_ENV: 'test',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
    ...SUITE_QUOTAS,
    ...env,
  } as NodeJS.ProcessEnv;
  delete full.NODE_OPTIONS;
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete full[name];
  const child = spawn(process.execPath, [MAIN], { env: full, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  return new Promise((resolve, reject) => {
    // A first development start deploys the demo's tokens on the embedded chain and places the demo orders through the services.
    const timer = setTimeout(() => reject(new Error(`gateway did not start:\n${out}`)), 120_000);
    child.stdout.on('data', () => {
      const m = /REST\s+https?:\/\/[^:]+:(\d+)\/api\/v1/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, port: Number(m[1]), output: () => out });
      }
    });
    child.on('exit', (code) => reject(new Error(`gateway exited with ${code}:\n${out}`)));
  });
}

/**
 * Every gateway started and not yet gone. A test that fails half-way never reaches its own stop:
 * under jest, whatever is still running when the file ends is stopped as an operator would (its
 * embedded chain and database with it), and killed if it does not stop within 10 s, so no
 * gateway outlives its test file and loads the machine under the next ones.
 */
const running = new Set<ChildProcess>();
if (typeof afterAll === 'function') {
  afterAll(async () => {
    await Promise.all(
      [...running].map(async (child) => {
        const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await killed(child, 'SIGTERM');
        clearTimeout(force);
      }),
    );
  }, 30_000);
}

export const killed = (child: ChildProcess, signal: NodeJS.Signals) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });
