import { zeroAddress, type Hex } from 'viem';
import { DomainEvent } from '../../src/events/event.entity';
import { ANVIL_DEV_KEY } from '../../src/config/chains';
import { ChainBatchOrder } from '../../src/modules/settlement/chain-batch.entity';
import { ChainTransaction, ChainTxStatus } from '../../src/modules/chain/chain-transaction.entity';
import { TOKEN_ABI } from '../../src/modules/chain/contracts';
import { Holding } from '../../src/modules/holding/holding.entity';
import { HoldingMovement } from '../../src/modules/holding/holding-movement.entity';
import { Order } from '../../src/modules/order/order.entity';
import type { EntityRecord } from '../../src/persistence/read-record';
import { serverUrl } from '../support/database';
import { aDealingDateNav } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { killed, startChildGateway, type ChildGateway } from '../support/child-gateway';
import { httpRequest } from '../support/http';
import { aOneStepOrder } from '../support/one-step.factories';
import { chainClients, eventually, testChains, TRANSFER, workerChain, type ChainClients } from '../support/chain';
import { aChainMarket, fourWhitelistedInvestors } from '../support/chain.factories';
import { RpcProxy } from '../support/rpc-proxy';

/*
 * A dealing date settled by the built gateway as its own process, SIGKILLed in the middle: its
 * batches signed and sent, the first one's outcome written, the others' not (their receipts
 * refused by the JSON-RPC proxy). Restarted on the same database and chain, it settles every
 * order exactly once. The embedded database belongs to one process, so this runs against a
 * PostgreSQL server (DATABASE_URL) only. DRILL_ORDERS rows (enough for two batches at least).
 */
jest.setTimeout(600_000);
const onServer = serverUrl() ? describe : describe.skip;
const ORDERS = Number(process.env.DRILL_ORDERS ?? 300);

onServer('A gateway SIGKILLed while settling a dealing date settles each order exactly once after a restart', () => {
  let gw: TestGateway;
  let proxy: RpcProxy;
  let child: ChildGateway | null = null;
  let chain: ChainClients;
  beforeAll(async () => {
    const { rpcUrl } = await workerChain();
    chain = chainClients(rpcUrl);
    proxy = await RpcProxy.start(rpcUrl);
    gw = await startTestGateway({ chains: await testChains({ leaseSeconds: 2 }) });
    await gw.reset();
  });
  afterAll(async () => {
    if (child) await killed(child.child, 'SIGKILL');
    await gw.close();
    await proxy.close();
  });

  const childEnv = () => ({
    DATABASE_URL: gw.db.url!,
    DRILL_AGENT_KEY: ANVIL_DEV_KEY,
    CHAINS: JSON.stringify({ '31337': { rpcUrls: [proxy.url], confirmations: 2, agentKeyEnv: 'DRILL_AGENT_KEY', replaceAfterMs: 600000, leaseSeconds: 2 } }),
  });
  const batches = () => gw.em().find(ChainTransaction, { purpose: 'settlement.batchMint' }, { orderBy: { id: 'asc' } });

  it('killed after its batches were sent and the first one settled: after the restart every order settles once, one mint each, the chain equal to the register', async () => {
    // given a dealing date of accepted subscriptions from four investors, its NAV published, prepared by an in-process gateway that then stops
    const m = await aChainMarket(gw);
    const { investors, wallets } = await fourWhitelistedInvestors(gw, m);
    const orders: EntityRecord<Order>[] = [];
    for (let i = 0; i < ORDERS; i++)
      orders.push(await aOneStepOrder(gw, { ...m, investor: investors[i % 4] }, { amount: '100', stage: 'accepted', chainId: '31337' }));
    const dealingDate = orders[0].dealingDate!;
    await aDealingDateNav(gw.em(), m.shareClass, '2', dealingDate);
    const token = await gw.opsToken();
    await gw.gateway.close(); // its sender stops and releases the key's lease: the child is the one writer

    // when the child settles the date, the receipts of every batch but the first kept from it
    const allowed = new Set<string>();
    proxy.decide = (method, params) => (method === 'eth_getTransactionReceipt' && !allowed.has(String(params[0]).toLowerCase()) ? 'down' : 'forward');
    child = await startChildGateway(childEnv());
    const res = await httpRequest(child.port, 'POST', '/graphql', {
      headers: { authorization: `Bearer ${token}` },
      body: {
        query: `mutation($sc: ID!, $d: String!) { settleDealingDate(shareClassId: $sc, dealingDate: $d) { failed { orderId } transactions { id } } }`,
        variables: { sc: m.shareClass.id, d: dealingDate },
      },
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.settleDealingDate.failed).toEqual([]);
    expect(res.body.data.settleDealingDate.transactions.length).toBeGreaterThanOrEqual(2);
    const signed = await eventually('every batch sent', async () => {
      const all = await batches();
      return all.every((t) => t.status === ChainTxStatus.sent) ? all : undefined;
    });
    allowed.add(signed[0].hash!.toLowerCase());
    await eventually('the first batch settled', async () => (await batches())[0].status === ChainTxStatus.confirmed);
    await killed(child.child, 'SIGKILL');
    child = null;

    // The moment of the kill: the first batch's orders settled, the others' batches mined on chain, their outcomes not written.
    const before = await batches();
    expect(before.slice(1).map((t) => t.status)).toEqual(before.slice(1).map(() => ChainTxStatus.sent));
    for (const t of before.slice(1)) expect((await chain.pub.getTransactionReceipt({ hash: t.hash as Hex })).status).toBe('success');
    const settledBefore = await gw.em().count(Order, { id: { $in: orders.map((o) => o.id) }, status: 'settled' });
    expect(settledBefore).toBe(await gw.em().count(ChainBatchOrder, { transactionId: before[0].id }));
    expect(settledBefore).toBeLessThan(ORDERS);

    // then, restarted, it settles the rest
    proxy.decide = () => 'forward';
    child = await startChildGateway(childEnv());
    const settled = await eventually(
      'every order settled',
      async () => {
        const rows = await gw.em().find(Order, { id: { $in: orders.map((o) => o.id) }, status: 'settled' });
        return rows.length === ORDERS ? rows : undefined;
      },
      300_000,
    );
    const after = await batches();
    // The same batches, each signed once and confirmed.
    expect(after.map((t) => [t.id, t.hash, t.hashes, t.status])).toEqual(before.map((t) => [t.id, t.hash, [t.hash], ChainTxStatus.confirmed]));
    const hashOf = new Map(
      (await gw.em().find(ChainBatchOrder, {})).map((r) => [r.orderId, after.find((t) => String(t.id) === String(r.transactionId))!.hash]),
    );
    for (const o of settled) expect(o.transferHash).toBe(hashOf.get(o.id));
    // One token.transfer_completed and one journal row per order.
    const completed = (await gw.em().find(DomainEvent, { type: 'order.transition', aggregateId: { $in: orders.map((o) => o.id) } })).filter(
      (e) => e.payload.webhookEvent === 'token.transfer_completed',
    );
    expect(completed.map((e) => e.aggregateId).sort()).toEqual(orders.map((o) => o.id).sort());
    expect((await gw.em().find(HoldingMovement, { orderId: { $in: orders.map((o) => o.id) } })).map((j) => j.orderId).sort()).toEqual(
      orders.map((o) => o.id).sort(),
    );
    // On chain: one mint per order (no batch twice), every wallet holding exactly its register balance.
    const mints = await chain.pub.getLogs({ address: m.token.contractAddress as Hex, event: TRANSFER, args: { from: zeroAddress }, fromBlock: 0n });
    expect(mints).toHaveLength(ORDERS);
    expect(new Set(mints.map((l) => l.transactionHash))).toEqual(new Set(after.map((t) => t.hash)));
    for (const inv of investors) {
      const held = (await gw.em().findOneOrFail(Holding, { investor: inv.id, shareClass: m.shareClass.id })).balance;
      expect(await chain.balanceOf(m.token.contractAddress, wallets.get(inv.id)!)).toBe(BigInt(Math.round(Number(held) * 1e6)));
    }
    expect(await chain.read<bigint>(m.token.contractAddress, TOKEN_ABI, 'totalSupply')).toBe(BigInt(ORDERS) * 50_000_000n);
    await killed(child.child, 'SIGTERM');
    child = null;
  });
});
