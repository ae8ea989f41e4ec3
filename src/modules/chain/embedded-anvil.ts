import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
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
    throw new Error(
      `no anvil for ${process.platform}-${process.arch}: ${pkg} is not installed (set ANVIL_BINARY to an anvil from foundryup, or configure CHAINS)`,
    );
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

/** An anvil started by spawnWatchedAnvil: its own pid (not the watcher's). */
export interface WatchedAnvil {
  pid: number;
  port: number;
  rpcUrl: string;
}

/**
 * Starts anvil under a small shell that watches `ownerPid` and ends anvil (SIGTERM, so it dumps
 * its state) within a second of the owner's end, however the owner ends: a SIGKILL runs no exit
 * handler, and an anvil left behind would keep dumping an old chain into the state file. The
 * shell also ends when anvil does. Unreferenced, so the owner may exit.
 *
 * Without a `port`, a free one is picked; a free port is only free until someone binds it, so
 * the anvil is ready only when it is alive and the listener on that port is its own socket (an
 * answer from another anvil that won the port does not count), and a lost race is tried again
 * on another port.
 */
export async function spawnWatchedAnvil(args: string[], options: { port?: number; ownerPid?: number } = {}): Promise<WatchedAnvil> {
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await freePort());
    const pid = await spawnWatched([...args, '--port', String(port)], options.ownerPid ?? process.pid);
    const rpcUrl = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (!alive(pid)) break;
      if (listensOn(pid, port) && (await answers(rpcUrl))) return { pid, port, rpcUrl };
      if (Date.now() > deadline) {
        await ended(pid);
        throw new Error(`anvil did not start on ${rpcUrl}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    if (options.port !== undefined || attempt >= 5) throw new Error(`anvil could not listen on ${rpcUrl} (is the port taken?)`);
  }
}

async function spawnWatched(args: string[], ownerPid: number): Promise<number> {
  const watch = `"$0" "$@" >/dev/null 2>&1 & A=$!; echo $A; exec >/dev/null; while kill -0 ${ownerPid} 2>/dev/null && kill -0 $A 2>/dev/null; do sleep 1; done; kill -TERM $A 2>/dev/null`;
  const child = spawn('sh', ['-c', watch, anvilBinary(), ...args], { stdio: ['ignore', 'pipe', 'ignore'] });
  const pid = await new Promise<number>((resolvePid, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      if (out.includes('\n')) resolvePid(Number(out.trim()));
    });
    child.once('error', reject);
    child.once('exit', () => reject(new Error('the anvil watcher ended at once')));
  });
  child.stdout.destroy();
  child.unref();
  return pid;
}

/**
 * Whether `pid` holds the listening socket of `port` (Linux: /proc/net/tcp* names the listener's
 * inode, /proc/<pid>/fd the process's sockets). Where /proc cannot tell, an answer on the port is trusted.
 */
function listensOn(pid: number, port: number): boolean {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const listeners = new Set<string>();
  try {
    for (const table of ['/proc/net/tcp', '/proc/net/tcp6'])
      if (existsSync(table))
        for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
          const cols = line.trim().split(/\s+/);
          if (cols.length > 9 && cols[1].endsWith(`:${hexPort}`) && cols[3] === '0A') listeners.add(cols[9]);
        }
    if (!existsSync('/proc/net/tcp')) return true;
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return listeners.has(/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1] ?? '');
      } catch {
        return false;
      }
    });
  } catch {
    return !existsSync('/proc/self');
  }
}

/** Whether an anvil answers JSON-RPC at `rpcUrl`. */
async function answers(rpcUrl: string): Promise<boolean> {
  try {
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
      signal: AbortSignal.timeout(2000),
    });
    return res.ok;
  } catch {
    return false;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether `pid` is still an anvil (not a process that got its number since). Where /proc is missing, trusted. */
function isAnvil(pid: number): boolean {
  if (!alive(pid)) return false;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('anvil');
  } catch {
    return !existsSync('/proc/self');
  }
}

/** Sends SIGTERM (anvil dumps its state and exits), then SIGKILL after `graceMs`; resolves once it is gone. */
async function ended(pid: number, graceMs = 10_000): Promise<void> {
  if (!alive(pid)) return;
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (alive(pid)) {
    if (Date.now() > deadline) process.kill(pid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** What `<stateDir>/anvil.lock` records: the anvil that owns the state file, and the gateway that owns it. */
interface AnvilLock {
  pid: number;
  port: number;
  owner: number;
}

/**
 * Anvil with chain id 31337. Transactions are mined at once and an empty block follows every
 * second (mixed mining), so confirmations accrue as on a real chain without slowing deployments.
 * With a state folder, the chain is loaded from and dumped to `<dir>/state.json` on SIGTERM and
 * every `stateIntervalSeconds` (a SIGKILL loses at most that interval).
 *
 * One state file has one anvil: `<dir>/anvil.lock` names it. A start that finds the anvil of an
 * earlier start still running (its gateway and watcher were killed together) ends it first, so
 * its last state is dumped and loaded here, and no two anvils dump into the same file.
 */
export async function startEmbeddedChain(options: { stateDir: string | null; port?: number; stateIntervalSeconds?: number }): Promise<EmbeddedChain> {
  let stateFile: string | null = null;
  let lockFile: string | null = null;
  if (options.stateDir) {
    mkdirSync(options.stateDir, { recursive: true, mode: 0o700 });
    chmodSync(options.stateDir, 0o700);
    stateFile = resolve(options.stateDir, 'state.json');
    lockFile = resolve(options.stateDir, 'anvil.lock');
    await endStaleAnvil(lockFile);
  }
  const args = ['--host', '127.0.0.1', '--chain-id', '31337', '--block-time', '1', '--mixed-mining'];
  if (stateFile) args.push('--state', stateFile, '--state-interval', String(options.stateIntervalSeconds ?? 5));
  const anvil = await spawnWatchedAnvil(args, { port: options.port });
  const port = anvil.port;
  if (lockFile) writeFileSync(lockFile, JSON.stringify({ pid: anvil.pid, port, owner: process.pid } satisfies AnvilLock), { mode: 0o600 });
  return {
    rpcUrl: anvil.rpcUrl,
    port,
    stateFile,
    async stop() {
      await ended(anvil.pid);
      if (lockFile) rmSync(lockFile, { force: true });
    },
  };
}

/** Ends the anvil a lock file names, if it still runs (a gateway killed with its watcher left it). */
async function endStaleAnvil(lockFile: string): Promise<void> {
  if (!existsSync(lockFile)) return;
  let lock: AnvilLock | null = null;
  try {
    lock = JSON.parse(readFileSync(lockFile, 'utf8')) as AnvilLock;
  } catch {
    // unreadable: nothing to end
  }
  if (lock && lock.owner !== process.pid && Number.isInteger(lock.pid) && isAnvil(lock.pid)) await ended(lock.pid);
  rmSync(lockFile, { force: true });
}
