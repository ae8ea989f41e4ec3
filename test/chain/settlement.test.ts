import { encodeFunctionData, type Hex } from 'viem';
import { DomainEvent } from '../../src/events/event.entity';
import { ChainTransaction, ChainTxStatus } from '../../src/modules/chain/chain-transaction.entity';
import { AGENT_ROLE_ABI, IDENTITY_REGISTRY_ABI, TOKEN_ABI } from '../../src/modules/chain/contracts';
import { Holding } from '../../src/modules/holding/holding.entity';
import { InvestorWallet, WalletStatus } from '../../src/modules/investor/investor.entity';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aOneStepOrder } from '../support/one-step.factories';
import { chainClients, eventually, randomWallet, testChains, workerChain } from '../support/chain';
import { aChainMarket, aWhitelistedWallet, finalOrder, opsCall } from '../support/chain.factories';

/*
 * Settlement on a real chain: the worker's anvil, the T-REX 4.1.6 and ONCHAINID contracts as
 * published, deployed by the gateway itself. No mock of the chain.
 */
jest.setTimeout(180_000);

const CHAIN = '31337';

describe('Tokens on chain: deployment, whitelist and settlement of one-step orders with real ERC-3643 contracts', () => {
  let gw: TestGateway;
  let chain: ReturnType<typeof chainClients>;
  beforeAll(async () => {
    gw = await startTestGateway({ chains: await testChains() });
    chain = chainClients((await workerChain()).rpcUrl);
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  const ops = (query: string, variables: Record<string, unknown> = {}) => opsCall(gw, query, variables);
  const market = () => aChainMarket(gw);
  const whitelistedWallet = (investorId: string, address: string) => aWhitelistedWallet(gw, investorId, address);
  const settle = (orderId: string) =>
    ops(`mutation($id: ID!) { settleOneStepOrder(orderId: $id) { id status settlementTransaction { status hash } } }`, { id: orderId });
  const settled = (orderId: string) => finalOrder(gw, orderId);
  const transitions = async (orderId: string) =>
    (await gw.em().find(DomainEvent, { aggregateId: orderId, type: 'order.transition' }, { orderBy: { position: 'asc' } })).map(
      (e) => e.payload as Record<string, any>,
    );

  it('deployToken deploys a full suite: the token answers ERC-3643, unpaused, the gateway agent of token and identity registry, the token agent of its registry', async () => {
    const m = await market();
    expect(m.token).toMatchObject({
      chainId: '31337',
      decimals: 6,
      isPrimary: true,
      contractAddress: expect.stringMatching(/^0x[0-9a-f]{40}$/),
      identityRegistry: expect.stringMatching(/^0x[0-9a-f]{40}$/),
    });
    const agent = gw.gateway.services.chain!.writable(CHAIN).account!.address;
    expect((await chain.read<string>(m.token.contractAddress, TOKEN_ABI, 'identityRegistry')).toLowerCase()).toBe(m.token.identityRegistry);
    expect(await chain.read<boolean>(m.token.contractAddress, TOKEN_ABI, 'paused')).toBe(false);
    expect(await chain.read<string>(m.token.contractAddress, TOKEN_ABI, 'symbol')).toBe('CFA');
    expect(await chain.read<boolean>(m.token.contractAddress, AGENT_ROLE_ABI, 'isAgent', [agent])).toBe(true);
    expect(await chain.read<boolean>(m.token.identityRegistry, AGENT_ROLE_ABI, 'isAgent', [agent])).toBe(true);
    expect(await chain.read<boolean>(m.token.identityRegistry, AGENT_ROLE_ABI, 'isAgent', [m.token.contractAddress])).toBe(true);
  });

  it("settles a subscription on chain: balanceOf is the order's tokens × 10^decimals, settled once, one token.transfer_completed with the mint's hash; a redemption then burns exactly its tokens", async () => {
    const m = await market();
    const address = randomWallet();
    const wallet = await whitelistedWallet(m.investor.id, address);
    expect(wallet.onchainIdentity).toMatch(/^0x[0-9a-f]{40}$/);
    expect(await chain.read<boolean>(m.token.identityRegistry, IDENTITY_REGISTRY_ABI, 'isVerified', [address])).toBe(true);
    // registered with the investor's country, ISO 3166-1 numeric (LU is 442), which a token's country rules read
    expect(m.investor.countryCode).toBe('LU');
    expect(await chain.read<number>(m.token.identityRegistry, IDENTITY_REGISTRY_ABI, 'investorCountry', [address])).toBe(442);

    const order = await aOneStepOrder(gw, m, { amount: '1000', stage: 'accepted', chainId: CHAIN });
    expect(order.settlementTokens).toBe('800');
    const res = await settle(order.id);
    expect(res.errors).toBeUndefined();
    expect(res.data.settleOneStepOrder).toMatchObject({ status: 'accepted', settlementTransaction: { status: 'queued', hash: null } });

    const done = await settled(order.id);
    expect(done.status).toBe('settled');
    const tx = await gw.em().findOneOrFail(ChainTransaction, { correlation: `order:${order.id}` });
    expect(tx).toMatchObject({ status: ChainTxStatus.confirmed, purpose: 'settlement.mint', hashes: [tx.hash] });
    expect(tx.confirmations).toBeGreaterThanOrEqual(2);
    expect(done.transferHash).toBe(tx.hash);
    expect(await chain.balanceOf(m.token.contractAddress, address)).toBe(800n * 10n ** 6n);
    const receipt = await chain.pub.getTransactionReceipt({ hash: tx.hash as Hex });
    expect(receipt.status).toBe('success');
    expect(receipt.gasUsed.toString()).toBe(tx.gasUsed);

    const events = (await transitions(order.id)).filter((e) => e.webhookEvent === 'token.transfer_completed');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ status: 'settled', by: 'chain', transferHash: tx.hash });
    expect((await gw.em().findOneOrFail(Holding, { investor: m.investor.id, shareClass: m.shareClass.id })).balance).toMatch(/^800(\.0+)?$/);

    // A second settle is refused: the order is no longer accepted, and one intent per order exists.
    const again = await settle(order.id);
    expect(again.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    expect(await gw.em().count(ChainTransaction, { correlation: `order:${order.id}` })).toBe(1);

    const redemption = await aOneStepOrder(gw, m, { type: 'redeem', tokenCount: '300.5', stage: 'accepted', chainId: CHAIN });
    expect((await settle(redemption.id)).errors).toBeUndefined();
    expect((await settled(redemption.id)).status).toBe('settled');
    const burn = await gw.em().findOneOrFail(ChainTransaction, { correlation: `order:${redemption.id}` });
    expect(burn.purpose).toBe('settlement.burn');
    expect(await chain.balanceOf(m.token.contractAddress, address)).toBe(800n * 10n ** 6n - 300_500_000n);
    expect((await gw.em().findOneOrFail(Holding, { investor: m.investor.id, shareClass: m.shareClass.id })).balance).toMatch(/^499\.50*$/);
  });

  it("a mint to a wallet whose identity is not registered fails with the contract's reason, token.transfer_failed, holdings unchanged, nothing sent", async () => {
    const m = await market();
    // Whitelisted in the register only: never registered on chain.
    const address = randomWallet();
    m.em.create(InvestorWallet, { investor: m.investor, chainId: CHAIN, address, status: WalletStatus.whitelisted, whitelistedAt: new Date() } as never);
    await m.em.flush();
    const order = await aOneStepOrder(gw, m, { amount: '1000', stage: 'accepted', chainId: CHAIN });
    expect((await settle(order.id)).errors).toBeUndefined();
    const done = await settled(order.id);
    expect(done).toMatchObject({ status: 'failed', failureReason: 'Identity is not verified.' });
    const tx = await gw.em().findOneOrFail(ChainTransaction, { correlation: `order:${order.id}` });
    expect(tx).toMatchObject({ status: ChainTxStatus.failed, revertReason: 'Identity is not verified.', hash: null, nonce: null });
    const failed = (await transitions(order.id)).filter((e) => e.webhookEvent === 'token.transfer_failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ status: 'failed', by: 'chain', reason: 'Identity is not verified.' });
    expect(await gw.em().findOne(Holding, { investor: m.investor.id, shareClass: m.shareClass.id })).toBeNull();
    expect(await chain.balanceOf(m.token.contractAddress, address)).toBe(0n);
  });

  it('a removed wallet is frozen and deleted from the registry: it can neither receive nor send', async () => {
    const m = await market();
    const address = randomWallet();
    await whitelistedWallet(m.investor.id, address);
    const order = await aOneStepOrder(gw, m, { amount: '100', stage: 'accepted', chainId: CHAIN });
    await settle(order.id);
    expect((await settled(order.id)).status).toBe('settled');

    const removed = await ops(`mutation($i: ID!) { removeInvestorWallet(input: { investorId: $i, chainId: "31337", reason: "compromised" }) { status } }`, {
      i: m.investor.id,
    });
    expect(removed.data.removeInvestorWallet.status).toBe('removed');
    const wallet = await gw.em().findOneOrFail(InvestorWallet, { address });
    await eventually('freeze and delete confirmed', async () => {
      const txs = await gw
        .em()
        .find(ChainTransaction, { walletId: wallet.id, purpose: { $in: ['wallet.freeze', 'wallet.delete'] } }, { orderBy: { id: 'asc' } });
      return txs.length === 2 && txs.every((t) => t.status === ChainTxStatus.confirmed) ? txs : undefined;
    });
    expect(await chain.read<boolean>(m.token.contractAddress, TOKEN_ABI, 'isFrozen', [address])).toBe(true);
    expect(await chain.read<boolean>(m.token.identityRegistry, IDENTITY_REGISTRY_ABI, 'isVerified', [address])).toBe(false);

    // Cannot receive: a mint by the agent reverts with the contract's reason.
    const agent = gw.gateway.services.chain!.writable(CHAIN).account!.address;
    await expect(
      chain.pub.call({
        account: agent,
        to: m.token.contractAddress as Hex,
        data: encodeFunctionData({ abi: TOKEN_ABI, functionName: 'mint', args: [address, 1n] }),
      }),
    ).rejects.toThrow(/Identity is not verified\./);
    // Cannot send: its own transfer reverts (frozen), though it still holds its tokens.
    expect(await chain.balanceOf(m.token.contractAddress, address)).toBe(80n * 10n ** 6n);
    await expect(
      chain.pub.call({
        account: address,
        to: m.token.contractAddress as Hex,
        data: encodeFunctionData({ abi: TOKEN_ABI, functionName: 'transfer', args: [agent, 1n] }),
      }),
    ).rejects.toThrow(/wallet is frozen/);
  });

  it('createToken of an existing address is checked on chain: not ERC-3643, or the gateway not an agent, is a 400 saying which', async () => {
    const m = await market();
    const create = (address: string) =>
      ops(
        `mutation($sc: ID!, $a: String!) { createToken(input: { shareClassId: $sc, chainId: "31337", contractAddress: $a, name: "X", symbol: "X", decimals: 6 }) { id identityRegistry } }`,
        { sc: m.shareClass.id, a: address },
      );
    const eoa = randomWallet();
    const notToken = await create(eoa);
    expect(notToken.errors![0]).toMatchObject({
      message: `${eoa} does not answer the ERC-3643 token interface (identityRegistry, compliance, decimals)`,
      extensions: { code: 'BAD_USER_INPUT' },
    });

    // A suite whose token no longer has the gateway as agent.
    const other = await ops(
      `mutation($sc: ID!) { deployToken(input: { shareClassId: $sc, chainId: "31337", name: "B", symbol: "B", decimals: 6 }) { id contractAddress identityRegistry } }`,
      { sc: m.shareClass.id },
    );
    const address = other.data.deployToken.contractAddress;
    const svc = gw.gateway.services.chain!;
    const agent = svc.writable(CHAIN).agent!;
    await svc.execute(
      { chainId: CHAIN, purpose: 'deploy', to: address, data: encodeFunctionData({ abi: AGENT_ROLE_ABI, functionName: 'removeAgent', args: [agent] }) },
      'removeAgent',
    );
    await gw.em().nativeDelete('Token', { contractAddress: address });
    const notAgent = await create(address);
    expect(notAgent.errors![0]).toMatchObject({
      message: `the gateway's key ${agent} is not an agent of token ${address}`,
      extensions: { code: 'BAD_USER_INPUT' },
    });

    // The first suite's token: accepted, with its identity registry read from chain.
    await gw.em().nativeDelete('Token', { contractAddress: m.token.contractAddress });
    const ok = await create(m.token.contractAddress);
    expect(ok.errors).toBeUndefined();
    expect(ok.data.createToken.identityRegistry).toBe(m.token.identityRegistry);
  });
});
