import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killed, startChildGateway, type ChildGateway } from '../support/child-gateway';

/**
 * A newcomer's first start (`npm start` on a fresh clone: development, embedded database,
 * embedded anvil, demo data, the provider simulator) logs nothing the newcomer should act on:
 * no warning or error line from its start until it has run a while (the follower on a young
 * chain, the first scheduled reconciliation, the demo orders placed through the services).
 */
describe('a first development start', () => {
  const root = mkdtempSync(join(tmpdir(), 'gw-first-'));
  let gw: ChildGateway | null = null;
  afterAll(async () => {
    if (gw) await killed(gw.child, 'SIGTERM');
    rmSync(root, { recursive: true, force: true });
  });

  it('logs no warning or error line during its start and its first seconds', async () => {
    gw = await startChildGateway({
      APP_ENV: 'development',
      DATABASE_URL: undefined,
      DATA_DIR: join(root, 'pglite'),
      CHAIN_DATA_DIR: join(root, 'anvil'),
      SEED_DEMO: undefined,
      SUPPLY_SIMULATOR: undefined,
      LOG_LEVEL: 'info',
    });
    // the demo orders are placed before the gateway says it is up; then the follower, the
    // reconciliation (held until the demo's tokens were deployed) and the relay run their first passes
    expect(gw.output()).toContain('"msg":"demo orders placed"');
    await new Promise((r) => setTimeout(r, 10_000));
    const loud = gw
      .output()
      .split('\n')
      .filter((l) => /^\{.*"level":(40|50|60)/.test(l));
    expect(loud).toEqual([]);
  }, 240_000);
});
