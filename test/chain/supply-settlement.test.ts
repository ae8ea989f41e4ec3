import { createWalletClient, encodeFunctionData, http, type Hex } from 'viem';
import { DomainEvent } from '../../src/events/event.entity';
import { TOKEN_ABI } from '../../src/modules/chain/contracts';
import { Order, OrderStatusEntry } from '../../src/modules/order/order.entity';
import type { SupplySimulator } from '../../src/supply/simulator';
import { anInvestor } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aSimulator, aTwoStepOrder, connectCallbacks, providersFor, SIM } from '../support/order.factories';
import { chainClients, randomWallet, testChains, workerChain } from '../support/chain';
import { aChainMarket, aWhitelistedWallet } from '../support/chain.factories';

/*
 * A two-step order's settlement reported by the supply-side platform with a transfer hash on a
 * chain the gateway reads (the worker's anvil): the receipt is checked before it is reflected.
 */
jest.setTimeout(240_000);

describe('Supply-side settlements verified on chain', () => {
  let gw: TestGateway;
  let sim: SupplySimulator;
  let rpcUrl: string;
  beforeAll(async () => {
    sim = await aSimulator();
    gw = await startTestGateway({ supply: providersFor(sim), chains: await testChains() });
    connectCallbacks(sim, gw);
    rpcUrl = (await workerChain()).rpcUrl;
  });
  afterAll(async () => {
    await gw.close();
    await sim.stop();
  });
  beforeEach(() => gw.reset());

  it('a settled callback whose hash is a mint to another wallet is refused (400 saying what did not match, kept out of the history, shown to ops); the right one is reflected', async () => {
    const m = await aChainMarket(gw);
    const wallet = randomWallet();
    await aWhitelistedWallet(gw, m.investor.id, wallet);
    const someoneElse = await anInvestor(gw.em(), m.distributor, { grants: [m.shareClass], walletChain: null });
    const otherWallet = randomWallet();
    await aWhitelistedWallet(gw, someoneElse.id, otherWallet);

    sim.addFund(m.shareClass.fund.id);
    const placed = await aTwoStepOrder(gw, { ...m, hostA: 'dist-a.test' });
    const pushed = await gw.api('POST', `/orders/subscriptions/push/${placed.orderId}`, { host: 'dist-a.test' });
    expect(pushed.status).toBe(200);
    const ref = pushed.body.data.supplyRefs[SIM].orderReference as string;
    expect((await sim.sendOutcome(ref, { status: 'accepted' })).status).toBe(200);
    const order = await gw.em().findOneOrFail(Order, { id: placed.orderId });
    expect(order).toMatchObject({ chainId: '31337', deliveryWallet: wallet });

    // The platform's agent mints on chain: once to another wallet, once to the investor's.
    const chain = chainClients(rpcUrl);
    const agent = createWalletClient({ account: gw.gateway.services.chain!.writable('31337').account!, chain: chain.pub.chain, transport: http(rpcUrl) });
    const mint = async (to: string) => {
      const hash = await agent.sendTransaction({
        to: m.token.contractAddress as Hex,
        data: encodeFunctionData({ abi: TOKEN_ABI, functionName: 'mint', args: [to as Hex, 800_000_000n] }),
      });
      expect((await chain.pub.waitForTransactionReceipt({ hash })).status).toBe('success');
      return hash;
    };
    const wrong = await mint(otherWallet);
    const right = await mint(wallet);

    const refused = await sim.sendOutcome(ref, { status: 'settled', transferHash: wrong });
    expect(refused).toEqual({
      status: 400,
      body: { isError: true, errorMsg: `transaction ${wrong} has no Transfer of token ${m.token.contractAddress} to ${wallet}`, data: {} },
    });
    const statuses = async () => (await gw.em().find(OrderStatusEntry, { order: placed.orderId }, { orderBy: { at: 'asc' } })).map((e) => e.status);
    expect(await statuses()).toEqual(['created', 'submitted', 'accepted']);
    expect((await gw.em().findOneOrFail(Order, { id: placed.orderId })).transferHash ?? null).toBeNull();
    const shown = await gw.em().find(DomainEvent, { type: 'supply.transfer_mismatch', aggregateId: placed.orderId });
    expect(shown.map((e) => e.payload)).toEqual([
      {
        orderId: placed.orderId,
        providerId: SIM,
        transferHash: wrong,
        reason: `transaction ${wrong} has no Transfer of token ${m.token.contractAddress} to ${wallet}`,
      },
    ]);

    const reflected = await sim.sendOutcome(ref, { status: 'settled', transferHash: right });
    expect(reflected.body).toEqual({ isError: false, errorMsg: 'NA', data: { orderId: placed.orderId, status: 'settled' } });
    expect(await statuses()).toEqual(['created', 'submitted', 'accepted', 'settled']);
    expect((await gw.em().findOneOrFail(Order, { id: placed.orderId })).transferHash).toBe(right);
  });
});
