import { ChainTransaction } from '../../src/modules/chain/chain-transaction.entity';
import { CTR_ABI, IDENTITY_REGISTRY_ABI, TIR_ABI, TOKEN_ABI } from '../../src/modules/chain/contracts';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { chainClients, testChains, workerChain } from '../support/chain';

/*
 * Tokens deployed through T-REX's own factory (TREXFactory.deployTREXSuite) on the worker's anvil:
 * one factory transaction and an `unpause` per token after the chain's set-up, the same roles and
 * claim configuration as a suite deployed contract by contract, and a token deployed once per salt.
 */
jest.setTimeout(180_000);

const CHAIN = '31337';

describe('Token suites deployed by the T-REX factory', () => {
  let gw: TestGateway;
  let chain: ReturnType<typeof chainClients>;
  beforeAll(async () => {
    gw = await startTestGateway({ chains: await testChains() });
    chain = chainClients((await workerChain()).rpcUrl);
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  const service = () => gw.gateway.services.chain!;
  const steps = async () => (await gw.em().find(ChainTransaction, { purpose: 'deploy' }, { orderBy: { createdAt: 'asc' } })).map((t) => t.step);

  it('deploys a token in one deployTREXSuite and an unpause, the agent owning it, the KYC topic trusted from the gateway claim issuer', async () => {
    const setup = await service().setup(CHAIN);
    const before = (await steps()).length;
    const suite = await service().deploySuite(CHAIN, 'share-class-1/FA', { name: 'Fund A', symbol: 'FA', decimals: 6 });
    expect((await steps()).slice(before)).toEqual(['TREXFactory.deployTREXSuite', 'unpause']);

    const agent = service().writable(CHAIN).agent!;
    expect((await chain.read<string>(suite.contractAddress, TOKEN_ABI, 'owner')).toLowerCase()).toBe(agent);
    expect(await chain.read<boolean>(suite.contractAddress, TOKEN_ABI, 'paused')).toBe(false);
    expect(await chain.read<boolean>(suite.identityRegistry, IDENTITY_REGISTRY_ABI, 'isAgent', [agent])).toBe(true);
    expect(await chain.read<boolean>(suite.identityRegistry, IDENTITY_REGISTRY_ABI, 'isAgent', [suite.contractAddress])).toBe(true);
    expect((await chain.read<string>(suite.identityRegistry, IDENTITY_REGISTRY_ABI, 'identityStorage')).toLowerCase()).toBe(
      setup.identityStorage.toLowerCase(),
    );
    const ctr = await chain.read<string>(suite.identityRegistry, IDENTITY_REGISTRY_ABI, 'topicsRegistry');
    expect(await chain.read<bigint[]>(ctr, CTR_ABI, 'getClaimTopics')).toEqual([1n]);
    const tir = await chain.read<string>(suite.identityRegistry, IDENTITY_REGISTRY_ABI, 'issuersRegistry');
    expect((await chain.read<string[]>(tir, TIR_ABI, 'getTrustedIssuers')).map((a) => a.toLowerCase())).toEqual([setup.claimIssuer.toLowerCase()]);
  });

  it('deploys a salt once: deploying it again (a retry after a crash) returns the same suite and sends nothing', async () => {
    const token = { name: 'Fund B', symbol: 'FB', decimals: 6 };
    const first = await service().deploySuite(CHAIN, 'share-class-2/FB', token);
    const sent = (await steps()).length;
    expect(await service().deploySuite(CHAIN, 'share-class-2/FB', token)).toEqual(first);
    expect((await steps()).length).toBe(sent);
  });
});
