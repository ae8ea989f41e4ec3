import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { httpRequest } from '../support/http';

/**
 * `npm start` in development starts the provider simulator and configures it as `supply-sim`
 * (the demo seed's provider): the demo order goes through subscribe → push → a signed outcome
 * callback from the simulator, over real HTTP between two servers.
 */
const MAIN = join(__dirname, '..', '..', 'dist', 'src', 'main.js');

function start(dataDir: string): Promise<{ child: ChildProcess; port: number; simUrl: string }> {
  const env = { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', APP_ENV: 'development', LOG_LEVEL: 'warn' } as NodeJS.ProcessEnv;
  delete env.DATABASE_URL;
  delete env.NODE_OPTIONS;
  delete env.SUPPLY_PROVIDERS;
  const child = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (out += c));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway did not start:\n${out}`)), 45_000);
    child.stdout!.on('data', () => {
      const rest = /REST\s+http:\/\/[^:]+:(\d+)\/api\/v1/.exec(out);
      const sim = /Supply\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (rest && sim) {
        clearTimeout(timer);
        resolve({ child, port: Number(rest[1]), simUrl: sim[1] });
      }
    });
    child.on('exit', (code) => reject(new Error(`gateway exited with ${code}:\n${out}`)));
  });
}

describe('npm start with the provider simulator', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gw-sim-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('pushes the demo subscription to the simulator and takes its signed outcome back', async () => {
    const { child, port, simUrl } = await start(dataDir);
    try {
      const created = await httpRequest(port, 'POST', '/api/v1/orders/subscribe', { body: { distributorId: 'DT000001', investorId: 'IN000001', shareClassId: 'SC000001', amountSubscription: 100 } });
      expect(created.body.data.status).toBe('created');
      const orderId = created.body.data.orderId;
      const pushed = await httpRequest(port, 'POST', `/api/v1/orders/subscriptions/push/${orderId}`);
      expect(pushed.body.data.status).toBe('submitted');
      const ref = pushed.body.data.supplyRefs['supply-sim'].orderReference;
      const sim = new URL(simUrl);
      const outcome = await httpRequest(Number(sim.port), 'POST', `/orders/${ref}/outcome`, { body: { status: 'accepted' } });
      expect(outcome.body).toMatchObject({ delivered: 200 });
      const read = await httpRequest(port, 'GET', `/api/v1/orders/${orderId}`);
      expect(Object.values(read.body.data.statusHistory).map((e: any) => [e.status, e.by])).toEqual([
        ['created', 'Network'],
        ['submitted', 'Network'],
        ['accepted', 'supply-sim'],
      ]);
    } finally {
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    }
  });
});
