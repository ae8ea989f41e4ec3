import { bearerOf } from '../support/auth.factories';
import { testChains } from '../support/chain';
import { aMarket } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';

/*
 * `chains`: what the console offers in its chain selects. A read-only chain whose RPC URL
 * carries a provider's key sits beside the worker's anvil, to show the key stays on the server.
 */
describe('GraphQL: the configured chains', () => {
  let gw: TestGateway;
  const PROVIDER_KEY = 'k3y-in-the-url';
  const CHAINS = `{ chains { chainId name writable confirmations } }`;

  beforeAll(async () => {
    const worker = await testChains();
    const sepolia = { ...worker['31337'], chainId: '11155111', rpcUrls: [`https://rpc.example/v3/${PROVIDER_KEY}`], agentKey: null, confirmations: 12 };
    gw = await startTestGateway({ chains: { ...worker, '11155111': sepolia } });
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  it('answers ops every configured chain, whether the gateway writes to it, and its depth; no URL and no key', async () => {
    // when
    const res = await gw.graphql(CHAINS, {}, { token: await gw.opsToken() });
    // then
    expect(res.body).toEqual({
      data: {
        chains: [
          { chainId: '31337', name: 'Anvil', writable: true, confirmations: 2 },
          { chainId: '11155111', name: 'Sepolia', writable: false, confirmations: 12 },
        ],
      },
    });
    expect(res.text).not.toContain(PROVIDER_KEY);
    expect(res.text).not.toContain('http');
  });

  it('refuses a distributor and an anonymous caller as every ops field does', async () => {
    const m = await aMarket(gw.em(), new Date());
    const distributor = await gw.graphql(CHAINS, {}, { headers: await bearerOf(gw, m.distributor) });
    const anonymous = await gw.graphql(CHAINS);
    expect(distributor.body).toEqual({
      data: null,
      errors: [expect.objectContaining({ message: 'ops access required', extensions: expect.objectContaining({ code: 'FORBIDDEN' }) })],
    });
    expect(anonymous.body).toEqual({
      data: null,
      errors: [expect.objectContaining({ message: 'authentication required', extensions: expect.objectContaining({ code: 'UNAUTHENTICATED' }) })],
    });
  });
});
