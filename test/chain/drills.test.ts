import { type Hex } from 'viem';
import { DomainEvent } from '../../src/events/event.entity';
import { ChainTransaction, ChainTxStatus } from '../../src/modules/chain/chain-transaction.entity';
import { Order } from '../../src/modules/order/order.entity';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aOneStepOrder } from '../support/one-step.factories';
import { chainClients, eventually, randomWallet, testChains, TRANSFER, workerChain } from '../support/chain';
import { aChainMarket, aWhitelistedWallet, finalOrder, opsCall } from '../support/chain.factories';
import { RpcProxy } from '../support/rpc-proxy';

/*
 * Drills on the worker's anvil, through a JSON-RPC proxy: the node unreachable, a transaction
 * dropped and stuck (mining stopped), a reorg under the confirmation depth. Each ends with one
 * mint on chain and one event.
 */
jest.setTimeout(240_000);

describe('Settlement drills: RPC down, dropped and stuck transactions, reorgs', () => {
  let gw: TestGateway;
  let proxy: RpcProxy;
  let chain: ReturnType<typeof chainClients>;
  beforeAll(async () => {
    const { rpcUrl } = await workerChain();
    chain = chainClients(rpcUrl);
    proxy = await RpcProxy.start(rpcUrl);
    gw = await startTestGateway({ chains: await testChains({ rpcUrls: [proxy.url], confirmations: 3, replaceAfterMs: 1500 }) });
  });
  afterAll(async () => {
    await chain.mining(true);
    await gw.close();
    await proxy.close();
  });
  beforeEach(async () => {
    proxy.decide = () => 'forward';
    await chain.mining(true);
    await gw.reset();
  });

  async function acceptedOrder() {
    const m = await aChainMarket(gw);
    const address = randomWallet();
    await aWhitelistedWallet(gw, m.investor.id, address);
    const order = await aOneStepOrder(gw, m, { amount: '1000', stage: 'accepted', chainId: '31337' });
    return { m, address, order };
  }
  const settle = (id: string) =>
    opsCall(gw, `mutation($id: ID!) { settleOneStepOrder(orderId: $id) { status settlementTransaction { status lastError } } }`, { id });
  const intent = (orderId: string) => gw.em().findOneOrFail(ChainTransaction, { correlation: `order:${orderId}` });

  /** One Transfer to the wallet on the canonical chain, one event, the order settled with the hash that was mined. */
  async function settledOnce(m: Awaited<ReturnType<typeof acceptedOrder>>['m'], address: string, orderId: string) {
    const done = await finalOrder(gw, orderId, 120_000);
    expect(done.status).toBe('settled');
    const tx = await intent(orderId);
    expect(tx.status).toBe(ChainTxStatus.confirmed);
    expect(done.transferHash).toBe(tx.hash);
    const logs = await chain.pub.getLogs({ address: m.token.contractAddress as Hex, event: TRANSFER, args: { to: address as Hex }, fromBlock: 0n });
    expect(logs.map((l) => l.transactionHash)).toEqual([tx.hash]);
    expect(await chain.balanceOf(m.token.contractAddress, address)).toBe(800n * 10n ** 6n);
    const events = (await gw.em().find(DomainEvent, { aggregateId: orderId, type: 'order.transition' })).filter(
      (e) => e.payload.webhookEvent === 'token.transfer_completed',
    );
    expect(events).toHaveLength(1);
    expect(events[0].payload.transferHash).toBe(tx.hash);
    return tx;
  }

  it('RPC down: the order stays accepted with the error visible on its settlement transaction, and settles when the RPC is back', async () => {
    const { m, address, order } = await acceptedOrder();
    // A chain that is away when ops settle is a 503 with nothing queued (test/custody/chain-away.test.ts):
    // here the node still answers the settlement's probe of its head, and everything the sender asks fails.
    proxy.decide = (method) => (method === 'eth_blockNumber' ? 'forward' : 'down');
    const answer = (await settle(order.id)).data.settleOneStepOrder;
    expect(answer).toMatchObject({ status: 'accepted', settlementTransaction: { status: 'queued' } });
    // The commit wakes the sender: by the time the answer's fields are read it may have failed once already.
    expect(answer.settlementTransaction.lastError ?? 'not tried yet').toMatch(/^not tried yet$|HTTP request failed|fetch failed|socket|closed/i);
    const seen = await eventually('the error recorded', async () => {
      const res = await opsCall(gw, `query($id: ID!) { order(id: $id) { status settlementTransaction { status lastError } } }`, { id: order.id });
      return res.data.order.settlementTransaction.lastError ? res.data.order : undefined;
    });
    expect(seen).toMatchObject({
      status: 'accepted',
      settlementTransaction: { status: 'queued', lastError: expect.stringMatching(/HTTP request failed|fetch failed|socket|closed/i) },
    });
    expect((await gw.em().findOneOrFail(Order, { id: order.id })).status).toBe('accepted');
    proxy.decide = () => 'forward';
    const tx = await settledOnce(m, address, order.id);
    expect(tx.lastError).toBeNull();
  });

  it('dropped, then stuck with mining stopped: sent again, replaced at the same nonce with higher fees (every hash kept), settled once', async () => {
    const { m, address, order } = await acceptedOrder();
    await chain.mining(false);
    await settle(order.id);
    const sent = await eventually('the mint sent', async () => ((await intent(order.id)).status === ChainTxStatus.sent ? intent(order.id) : undefined));
    await chain.test.request({ method: 'anvil_dropTransaction', params: [sent.hash] } as never);
    // The node forgot it: the same bytes go again (still one hash), then, not mined in time, a replacement.
    const replaced = await eventually('a replacement', async () => {
      const t = await intent(order.id);
      return t.hashes.length >= 2 ? t : undefined;
    });
    expect(replaced.hashes[0]).toBe(sent.hash);
    expect(replaced.nonce).toBe(sent.nonce);
    expect(BigInt(replaced.maxFeePerGas!)).toBeGreaterThan(BigInt(sent.maxFeePerGas!));
    await chain.mining(true);
    const tx = await settledOnce(m, address, order.id);
    expect(tx.hashes).toContain(sent.hash);
    expect(tx.hashes).toContain(tx.hash);
  });

  it('a reorg under the confirmation depth takes the receipt away: the same transaction is sent again and the order settles once', async () => {
    const { m, address, order } = await acceptedOrder();
    await chain.mining(false);
    await settle(order.id);
    const sent = await eventually('the mint sent', async () => ((await intent(order.id)).status === ChainTxStatus.sent ? intent(order.id) : undefined));
    await chain.test.mine({ blocks: 1 });
    const mined = await eventually('the mint mined, under the depth', async () =>
      (await intent(order.id)).status === ChainTxStatus.mined ? intent(order.id) : undefined,
    );
    expect(mined.confirmations).toBe(1);
    await chain.test.request({ method: 'anvil_reorg', params: [1, []] } as never);
    expect(await chain.pub.getTransactionReceipt({ hash: sent.hash as Hex }).catch(() => null)).toBeNull();
    // Sent again: back in the node's pool, mined in a later block.
    await eventually('sent again', async () => ((await chain.pub.getTransaction({ hash: sent.hash as Hex }).catch(() => null)) ? true : undefined));
    expect((await gw.em().findOneOrFail(Order, { id: order.id })).status).toBe('accepted');
    await chain.mining(true);
    const tx = await settledOnce(m, address, order.id);
    expect(tx.hash).toBe(sent.hash);
    expect(BigInt(tx.blockNumber!)).toBeGreaterThanOrEqual(BigInt(mined.blockNumber!));
  });
});
