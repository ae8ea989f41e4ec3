import { spawnWatchedAnvil } from '../../src/modules/chain/embedded-anvil';

/*
 * A picked port is free only until someone binds it: two anvils started at once may pick the same
 * one, and the loser used to be taken for ready because the winner answered on that port.
 */
const ARGS = ['--host', '127.0.0.1', '--chain-id', '31337'];

describe('an embedded anvil is ready only on a port it holds', () => {
  const pids: number[] = [];
  afterAll(() => pids.forEach((pid) => process.kill(pid, 'SIGTERM')));

  it('refuses a port another anvil answers on instead of taking that anvil for its own', async () => {
    const first = await spawnWatchedAnvil(ARGS);
    pids.push(first.pid);
    await expect(spawnWatchedAnvil(ARGS, { port: first.port })).rejects.toThrow(`anvil could not listen on http://127.0.0.1:${first.port}`);
  }, 60_000);

  it('starts four at once on four ports, each the listener of its own', async () => {
    const started = await Promise.all([1, 2, 3, 4].map(() => spawnWatchedAnvil(ARGS)));
    pids.push(...started.map((a) => a.pid));
    expect(new Set(started.map((a) => a.port)).size).toBe(4);
    for (const a of started) {
      const res = await fetch(a.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
      });
      expect(((await res.json()) as { result: string }).result).toBe('0x7a69');
    }
  }, 60_000);
});
