import { inspect } from 'node:util';
import { loadConfig, ConfigError } from '../../src/config';
import { assertChainsConfigured } from '../../src/modules/chain/chain-readiness';
import { chainsCarryingActiveTokens } from '../../src/modules/token/token-chains.queries';
import { aShareClass } from '../support/factories';
import { Token } from '../../src/modules/token/token.entity';
import { startTestGateway, type TestGateway } from '../support/gateway';

const KEY = '0x' + '1f'.repeat(32);

describe('CHAINS: configuration of the chains, failing closed', () => {
  it('reads each chain: RPC URLs, confirmations, explorer, the agent key from a named variable — which never shows in JSON, logs or inspection', () => {
    const config = loadConfig({
      APP_ENV: 'development',
      CHAINS: JSON.stringify({
        '8453': { rpcUrls: ['https://rpc.example/base'], confirmations: 12, agentKeyEnv: 'AGENT_8453', explorerUrl: 'https://basescan.org/' },
      }),
      AGENT_8453: KEY,
    });
    const base = config.chains!['8453'];
    expect(base).toMatchObject({
      chainId: '8453',
      rpcUrls: ['https://rpc.example/base'],
      confirmations: 12,
      explorerUrl: 'https://basescan.org',
      embedded: false,
      replaceAfterMs: 60000,
      leaseSeconds: 30,
    });
    expect(base.agentKey!.reveal()).toBe(KEY);
    expect(JSON.stringify(config)).not.toContain('1f1f1f');
    expect(inspect(config, { depth: 10 })).not.toContain('1f1f1f');
    // eslint-disable-next-line @typescript-eslint/restrict-template-expressions -- what a template makes of the key is the point
    expect(`${base.agentKey}`).toBe('[redacted]');
  });

  it.each([
    [{ CHAINS: '{' }, 'CHAINS must be a JSON object of chain id to {rpcUrls, confirmations, agentKeyEnv | agentKeyFile, explorerUrl}'],
    [{ CHAINS: JSON.stringify({ abc: { rpcUrls: ['http://x'] } }) }, 'CHAINS key "abc" must be a numeric chain id'],
    [{ CHAINS: JSON.stringify({ '1': { rpcUrls: [] } }) }, 'CHAINS.1.rpcUrls must be a non-empty list of http(s) or ws(s) URLs'],
    [{ CHAINS: JSON.stringify({ '1': { rpcUrls: ['http://x'], confirmations: 0 } }) }, 'CHAINS.1.confirmations must be an integer from 1 to 1000'],
    [{ CHAINS: JSON.stringify({ '1': { rpcUrls: ['http://x'], agentKeyEnv: 'MISSING_KEY' } }) }, 'CHAINS.1.agentKeyEnv names MISSING_KEY, which is not set'],
    [
      { CHAINS: JSON.stringify({ '1': { rpcUrls: ['http://x'], agentKeyFile: '/nonexistent/key' } }) },
      'CHAINS.1.agentKeyFile cannot be read: "/nonexistent/key"',
    ],
    [{ CHAINS: JSON.stringify({ '1': { rpcUrls: ['http://x'], agentKeyEnv: 'K' } }), K: 'not-a-key' }, 'CHAINS.1: the agent key must be 32 bytes in hex'],
    [
      { CHAINS: JSON.stringify({ '1': { rpcUrls: ['http://x'], agentKey: KEY } }) },
      'CHAINS.1.agentKey is refused: name a variable (agentKeyEnv) or a file (agentKeyFile) holding the key',
    ],
  ])('names the mistake %#', (env, message) => {
    let error: unknown;
    try {
      loadConfig({ APP_ENV: 'development', ...env });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(message);
    expect((error as Error).message).not.toContain('1f1f1f');
  });

  describe('at start', () => {
    let gw: TestGateway;
    beforeAll(async () => {
      gw = await startTestGateway();
    });
    afterAll(() => gw.close());
    beforeEach(() => gw.reset());
    // What src/main.ts does at start: the domain's chains carrying active tokens, checked against CHAINS.
    const checked = async (chains: Parameters<typeof assertChainsConfigured>[1], env: string) =>
      assertChainsConfigured(await chainsCarryingActiveTokens(gw.em()), chains, env);

    it('outside development and test, a chain carrying a token of an active share class without an agent key stops the gateway, naming the chain', async () => {
      const sc = await aShareClass(gw.em(), { chainId: '8453' });
      const token = await gw.em().findOneOrFail(Token, { shareClass: sc.id });
      const readOnly = loadConfig({ APP_ENV: 'development', CHAINS: JSON.stringify({ '8453': { rpcUrls: ['https://rpc.example/base'] } }) }).chains;
      await expect(checked(null, 'production')).rejects.toThrow(
        `CHAINS has no agent key for chain 8453, which carries tokens of active share classes: ${token.id} (${sc.id})`,
      );
      await expect(checked(readOnly, 'production')).rejects.toThrow(ConfigError);
      const configured = loadConfig({
        APP_ENV: 'development',
        CHAINS: JSON.stringify({ '8453': { rpcUrls: ['https://rpc.example/base'], agentKeyEnv: 'K' } }),
        K: KEY,
      }).chains;
      await expect(checked(configured, 'production')).resolves.toBeUndefined();
      // A share class no longer active does not hold the start.
      await gw.em().nativeUpdate('ShareClass', { id: sc.id }, { status: 'closed' });
      await expect(checked(null, 'production')).resolves.toBeUndefined();
      // Development and test run on the embedded chain.
      await gw.em().nativeUpdate('ShareClass', { id: sc.id }, { status: 'active' });
      await expect(checked(null, 'test')).resolves.toBeUndefined();
    });
  });
});
