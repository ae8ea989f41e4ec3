import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildGateway } from '../support/child-gateway';
import { httpRequest } from '../support/http';

/**
 * `npm start` in development starts the provider simulator and configures it as `supply-sim`
 * (the demo seed's provider): the demo order goes through subscribe → push → a signed outcome
 * callback from the simulator, over real HTTP between two servers.
 */

/** The built gateway as `npm start` runs it in development, with the simulator it starts. */
async function start(dataDir: string) {
  const gateway = await startChildGateway({
    DATA_DIR: dataDir,
    APP_ENV: 'development',
    SEED_DEMO: undefined,
    DATABASE_URL: undefined,
    SUPPLY_PROVIDERS: undefined,
  });
  const simUrl = /Supply\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(gateway.output())![1];
  return { ...gateway, simUrl };
}

describe('npm start with the provider simulator', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gw-sim-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('pushes the demo subscription to the simulator and takes its signed outcome back', async () => {
    const { child, port, simUrl } = await start(dataDir);
    try {
      const created = await httpRequest(port, 'POST', '/api/v1/orders/subscribe', {
        body: { distributorId: 'DT000001', investorId: 'IN000001', shareClassId: 'SC000001', amountSubscription: 1000 },
      });
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
  }, 180_000); // a first development start places the demo orders through the services
});
