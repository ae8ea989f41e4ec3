import { createAnvil, type Anvil } from '@viem/anvil';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';

/**
 * The anvil binary of this platform, from the npm package anvil's own wrapper names
 * (`@foundry-rs/anvil-<os>-<arch>`, an optional dependency: npm installs the one that fits).
 * ANVIL_BINARY points elsewhere (a platform without a package: `foundryup`'s anvil).
 */
export function anvilBinary(env: NodeJS.ProcessEnv = process.env): string {
  if (env.ANVIL_BINARY?.trim()) return env.ANVIL_BINARY.trim();
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const pkg = `@foundry-rs/anvil-${process.platform}-${arch}`;
  let dir: string;
  try {
    dir = dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    throw new Error(`no anvil for ${process.platform}-${process.arch}: ${pkg} is not installed (set ANVIL_BINARY to an anvil from foundryup, or configure CHAINS)`);
  }
  const bin = join(dir, 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
  if (!existsSync(bin)) throw new Error(`${pkg} has no binary at ${bin}`);
  return bin;
}

export interface EmbeddedChain {
  rpcUrl: string;
  port: number;
  /** Where the chain's state is persisted, or null (in memory). */
  stateFile: string | null;
  /** SIGTERM: anvil writes its state and exits. */
  stop(): Promise<void>;
}

/** A free loopback port (anvil needs one named). */
export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

/**
 * Anvil with chain id 31337. Transactions are mined at once and an empty block follows every
 * second (mixed mining), so confirmations accrue as on a real chain without slowing deployments.
 * With a state folder, the chain is loaded from and dumped to `<dir>/state.json` on SIGTERM and
 * every `stateIntervalSeconds` (a SIGKILL loses at most that interval).
 */
export async function startEmbeddedChain(options: { stateDir: string | null; port?: number; stateIntervalSeconds?: number; blockTimeSeconds?: number; noMining?: boolean }): Promise<EmbeddedChain> {
  const port = options.port ?? (await freePort());
  let stateFile: string | null = null;
  if (options.stateDir) {
    mkdirSync(options.stateDir, { recursive: true });
    stateFile = resolve(options.stateDir, 'state.json');
  }
  const anvil: Anvil = createAnvil({
    anvilBinary: anvilBinary(),
    host: '127.0.0.1',
    port,
    chainId: 31337,
    ...(options.noMining ? { noMining: true } : { blockTime: options.blockTimeSeconds ?? 1, mixedMining: true }),
    ...(stateFile ? { state: stateFile, stateInterval: options.stateIntervalSeconds ?? 5 } : {}),
    startTimeout: 30_000,
  } as Parameters<typeof createAnvil>[0]);
  await anvil.start();
  return { rpcUrl: `http://127.0.0.1:${port}`, port, stateFile, stop: () => anvil.stop() };
}
