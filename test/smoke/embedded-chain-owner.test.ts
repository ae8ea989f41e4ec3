import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, http, type Hex } from 'viem';
import { systemClock } from '../../src/common/clock';
import { openDatabase } from '../../src/boot/orm';
import { killed, startChildGateway, type ChildGateway } from '../support/child-gateway';
import { eventually } from '../support/chain';

/**
 * A development start as a newcomer's (`npm start`: embedded database, embedded anvil, demo data)
 * writes files only its owner may read, and its anvil has one owner: a gateway killed with
 * SIGKILL leaves no anvil behind, and the next start's chain holds the register's last block.
 */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Every file and folder under `dir` whose mode lets group or others in. */
function openToOthers(dir: string): string[] {
  const found: string[] = [];
  const walk = (path: string) => {
    if ((statSync(path).mode & 0o077) !== 0) found.push(`${path} ${(statSync(path).mode & 0o777).toString(8)}`);
    if (statSync(path).isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(dir);
  return found;
}

describe('the embedded chain of a development start', () => {
  const root = mkdtempSync(join(tmpdir(), 'gw-own-'));
  const env = {
    APP_ENV: 'development',
    DATABASE_URL: undefined,
    DATA_DIR: join(root, 'pglite'),
    CHAIN_DATA_DIR: join(root, 'anvil'),
    SEED_DEMO: 'true',
    SUPPLY_SIMULATOR: 'false',
  };
  const lockFile = join(root, 'anvil', 'anvil.lock');
  let gw: ChildGateway | null = null;
  afterAll(async () => {
    if (gw) await killed(gw.child, 'SIGTERM');
    rmSync(root, { recursive: true, force: true });
  });

  it('writes its database, chain state and lock for its owner only (folders 0700, files 0600)', async () => {
    gw = await startChildGateway(env);
    // the state is dumped every 5 s: wait for the first dump
    await eventually('the first state dump', async () => existsSync(join(root, 'anvil', 'state.json')), 30_000);
    // no one else may enter the folders while it runs…
    expect(openToOthers(env.CHAIN_DATA_DIR)).toEqual([]);
    expect(statSync(env.DATA_DIR).mode & 0o777).toBe(0o700);
    // …and every file is the owner's once it stops
    await killed(gw.child, 'SIGTERM');
    expect(openToOthers(env.DATA_DIR)).toEqual([]);
    expect(openToOthers(env.CHAIN_DATA_DIR)).toEqual([]);
    gw = await startChildGateway(env);
  }, 240_000);

  it("ends with its gateway, even a SIGKILLed one, and the next start loads the register's last block", async () => {
    const { pid } = JSON.parse(readFileSync(lockFile, 'utf8')) as { pid: number };
    expect(alive(pid)).toBe(true);
    // when the gateway is killed without a chance to stop anything
    await killed(gw!.child, 'SIGKILL');
    gw = null;
    // then its anvil ends too (its watcher saw the gateway go)
    await eventually('the anvil of the killed gateway to end', async () => !alive(pid), 10_000);
    // and the register's last mined transaction…
    const db = await openDatabase({ databaseUrl: null, dataDir: env.DATA_DIR, poolMax: 2, clock: systemClock });
    const [last] = await db.orm.em
      .fork()
      .execute<{ hash: string; block_number: string }[]>(
        `select hash, block_number from chain_transaction where block_number is not null order by block_number desc limit 1`,
      );
    await db.close();
    expect(last).toBeDefined();
    // …is on the chain of the next start
    gw = await startChildGateway(env);
    const { pid: next, port } = JSON.parse(readFileSync(lockFile, 'utf8')) as { pid: number; port: number };
    expect(next).not.toBe(pid);
    const chain = createPublicClient({ transport: http(`http://127.0.0.1:${port}`) });
    const receipt = await chain.getTransactionReceipt({ hash: last.hash as Hex });
    expect(receipt.blockNumber).toBe(BigInt(last.block_number));
  }, 240_000);
});
