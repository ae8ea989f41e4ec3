import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { createPublicClient, createTestClient, defineChain, getAbiItem, http, isHex, type Hex } from 'viem';
import { embeddedChainConfig, type ChainConfig, type ChainsConfig } from '../../src/config/chains';
import { spawnWatchedAnvil } from '../../src/modules/chain/embedded-anvil';
import { TOKEN_ABI } from '../../src/modules/chain/contracts';

/**
 * The chain of a jest worker: one anvil per worker process, started by the first test file that
 * asks for it (the rest of the suite never pays for it) and kept for the worker's life (its
 * child process ends with the worker). Jest gives each test file its own module registry, so the
 * worker's anvil is found again through a small file naming its port and the worker's pid.
 */
export async function workerChain(): Promise<{ rpcUrl: string }> {
  const key = createHash('sha256').update(process.cwd()).digest('hex').slice(0, 12);
  const file = join(tmpdir(), `gw-anvil-${key}-w${process.env.JEST_WORKER_ID ?? '0'}.json`);
  if (existsSync(file)) {
    const known = JSON.parse(readFileSync(file, 'utf8')) as { pid: number; rpcUrl: string };
    if (known.pid === process.pid && (await answers(known.rpcUrl))) return { rpcUrl: known.rpcUrl };
  }
  // Unreferenced, so the worker may exit; a watcher stops anvil within a second of the worker's
  // end, however it ends (jest may force-exit its workers, which runs no exit handler).
  const { rpcUrl } = await spawnWatchedAnvil(['--host', '127.0.0.1', '--chain-id', '31337', '--block-time', '1', '--mixed-mining']);
  writeFileSync(file, JSON.stringify({ pid: process.pid, rpcUrl }));
  return { rpcUrl };
}

async function answers(rpcUrl: string): Promise<boolean> {
  try {
    await createPublicClient({ transport: http(rpcUrl, { retryCount: 0, timeout: 2000 }) }).getChainId();
    return true;
  } catch {
    return false;
  }
}

/** The CHAINS of a test gateway on the worker's chain (short replacement delay; overrides per test). */
export async function testChains(over: Partial<ChainConfig> = {}): Promise<ChainsConfig> {
  const { rpcUrl } = await workerChain();
  return { '31337': { ...embeddedChainConfig(rpcUrl), embedded: false, ...over } };
}

/** Reads the worker's chain, and drives anvil (mining, dropping, reorgs) for the drills. */
const anvilChain = defineChain({
  id: 31337,
  name: 'anvil',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [] } },
});

export type ChainClients = ReturnType<typeof chainClients>;

export function chainClients(rpcUrl: string) {
  const foundry = anvilChain;
  // cacheTime 0: the tests read the head as it is now, as the gateway does (viem caches it otherwise).
  const pub = createPublicClient({ chain: foundry, transport: http(rpcUrl), cacheTime: 0 });
  const test = createTestClient({ chain: foundry, mode: 'anvil', transport: http(rpcUrl) });
  return {
    pub,
    test,
    /**
     * Mining on (the worker's anvil as started: every transaction at once and a block a second) or
     * off (nothing is mined: what is sent waits in the mempool). A test that turns it off turns it
     * back on however it ends: the anvil is the jest worker's, shared with the next files.
     */
    async mining(on: boolean) {
      await test.setAutomine(on);
      await test.setIntervalMining({ interval: on ? 1 : 0 });
    },
    balanceOf: (token: string, wallet: string) => pub.readContract({ address: token as Hex, abi: TOKEN_ABI, functionName: 'balanceOf', args: [wallet as Hex] }),
    read: <T>(to: string, abi: unknown, functionName: string, args: unknown[] = []) =>
      pub.readContract({ address: to as Hex, abi: abi as never, functionName, args }) as Promise<T>,
  };
}

/** Polls until `check` returns a value (not undefined/false), or fails naming what it waited for. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined | false | null>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false && v !== null) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A random wallet address (the investor's; the gateway never holds its key). */
/** The token's ERC-20 `Transfer` event, as its generated ABI has it: for reading logs. */
export const TRANSFER = getAbiItem({ abi: TOKEN_ABI, name: 'Transfer' });

/** A hex value the register holds as text (an address, an identity), checked, for a typed contract call. */
export function hex(value: string | null | undefined): Hex {
  if (!isHex(value)) throw new Error(`not a hex value: ${value}`);
  return value;
}

export const randomWallet = (): Hex => `0x${[...Array(40)].map(() => '0123456789abcdef'[Math.floor(Math.random() * 16)]).join('')}`;
