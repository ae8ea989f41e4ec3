import { type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { DomainEvent } from '../../src/events/event.entity';
import { ChainBatchOrder } from '../../src/modules/settlement/chain-batch.entity';
import { ChainTransaction, ChainTxStatus } from '../../src/modules/chain/chain-transaction.entity';
import { AGENT_ROLE_ABI, IDENTITY_REGISTRY_ABI, TOKEN_ABI } from '../../src/modules/chain/contracts';
import { Holding } from '../../src/modules/holding/holding.entity';
import { Order } from '../../src/modules/order/order.entity';
import type { EntityRecord } from '../../src/persistence/read-record';
import { aDealingDateNav } from '../support/factories';
import { aOneStepOrder } from '../support/one-step.factories';
import { eventually } from '../support/chain';
import { aChainMarket, fourWhitelistedInvestors, behindTheGateway, onTheWorkerChain, opsCall, sendAs } from '../support/chain.factories';

/*
 * A batch that reverts whole because one row turned bad between the gateway's check and the
 * block: T-REX's batchMint reverts on one unverified wallet. The issuer's second agent removes a
 * wallet's identity in the very block that mines the batch (mining stopped, its call paid a
 * higher tip so it goes first): the batch passed its check and its call, then reverted.
 */
jest.setTimeout(300_000);

const CHAIN = '31337';
/** Anvil's second default account: another agent of the issuer's identity registry. */
const SECOND_AGENT = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const ORDERS = 12;
const SETTLE = `mutation($sc: ID!, $d: String!) { settleDealingDate(shareClassId: $sc, dealingDate: $d) { failed { orderId } transactions { id } } }`;

describe('A batch reverted by one row that turned bad after its check', () => {
  const world = onTheWorkerChain({ replaceAfterMs: 600_000 });
  afterAll(() => world.chain.mining(true));

  it("is split in halves until the bad row is alone: that order fails with the contract's reason, every other settles exactly once, and the chain matches the register", async () => {
    const { gw, chain, rpcUrl } = world;
    // given a dealing date of 12 subscriptions from four investors, one of whose wallets will lose its identity
    const m = await aChainMarket(gw);
    const { investors, wallets } = await fourWhitelistedInvestors(gw, m);
    const doomed = investors[3];
    const orders: EntityRecord<Order>[] = [];
    for (let i = 0; i < ORDERS; i++)
      orders.push(await aOneStepOrder(gw, { ...m, investor: investors[i % 4] }, { amount: '100', stage: 'accepted', chainId: CHAIN }));
    const doomedOrders = orders.filter((o) => o.investor.id === doomed.id).map((o) => o.id);
    const dealingDate = orders[0].dealingDate!;
    await aDealingDateNav(gw.em(), m.shareClass, '2', dealingDate);
    await behindTheGateway(gw, rpcUrl, m.token.identityRegistry, AGENT_ROLE_ABI, 'addAgent', [SECOND_AGENT.address]);

    // when the batch has passed its checks and is sent, and the wallet's identity is deleted in the same block, first
    await chain.mining(false);
    const run = await opsCall(gw, SETTLE, { sc: m.shareClass.id, d: dealingDate });
    expect(run.errors).toBeUndefined();
    expect(run.data.settleDealingDate.failed).toEqual([]);
    expect(run.data.settleDealingDate.transactions).toHaveLength(1);
    const batchId = String(run.data.settleDealingDate.transactions[0].id);
    const sent = await eventually('the batch sent', async () => {
      const t = await gw.em().findOneOrFail(ChainTransaction, { id: batchId });
      return t.status === ChainTxStatus.sent ? t : undefined;
    });
    const removal = await sendAs(
      SECOND_AGENT,
      rpcUrl,
      m.token.identityRegistry,
      IDENTITY_REGISTRY_ABI,
      'deleteIdentity',
      [wallets.get(doomed.id)!],
      100_000_000_000n,
    );
    await chain.test.mine({ blocks: 1 });
    const [removed, batch] = [await chain.pub.getTransactionReceipt({ hash: removal }), await chain.pub.getTransactionReceipt({ hash: sent.hash as Hex })];
    expect(removed.status).toBe('success');
    expect(batch).toMatchObject({ status: 'reverted', blockNumber: removed.blockNumber });
    await chain.mining(true);

    // then the doomed orders fail with the contract's reason, the others settle, each once
    const final = await eventually(
      'every order of the date final',
      async () => {
        const rows = await gw.em().find(Order, { id: { $in: orders.map((o) => o.id) }, status: { $in: ['settled', 'failed'] } });
        return rows.length === ORDERS ? rows : undefined;
      },
      120_000,
    );
    expect(
      final
        .filter((o) => o.status === 'failed')
        .map((o) => [o.id, o.failureReason])
        .sort(),
    ).toEqual(doomedOrders.map((id) => [id, 'Identity is not verified.']).sort());
    const settled = final.filter((o) => o.status === 'settled');
    expect(settled).toHaveLength(ORDERS - doomedOrders.length);
    expect((await gw.em().findOneOrFail(ChainTransaction, { id: batchId })).status).toBe(ChainTxStatus.reverted);

    // Every settled order is a row of exactly one confirmed batch, whose hash its one token.transfer_completed names.
    const intents = await gw.em().find(ChainTransaction, { purpose: 'settlement.batchMint' });
    const rows = await gw.em().find(ChainBatchOrder, {});
    for (const o of settled) {
      const intent = intents.find((t) => String(t.id) === String(rows.find((r) => r.orderId === o.id)!.transactionId))!;
      expect(intent.status).toBe(ChainTxStatus.confirmed);
      expect(o.transferHash).toBe(intent.hash);
    }
    const events = (await gw.em().find(DomainEvent, { type: 'order.transition', aggregateId: { $in: orders.map((o) => o.id) } })).map(
      (e) => e.payload as Record<string, any>,
    );
    const completed = events.filter((p) => p.webhookEvent === 'token.transfer_completed');
    expect(completed.map((p) => p.orderId).sort()).toEqual(settled.map((o) => o.id).sort());
    for (const p of completed) expect(p.transferHash).toBe(settled.find((o) => o.id === p.orderId)!.transferHash);
    const failedEvents = events.filter((p) => p.webhookEvent === 'token.transfer_failed');
    expect(failedEvents.map((p) => [p.orderId, p.reason]).sort()).toEqual(doomedOrders.map((id) => [id, 'Identity is not verified.']).sort());

    // On chain, exactly the register: 50 tokens an order settled, none to the doomed wallet.
    for (const inv of investors) {
      const held = (await gw.em().findOne(Holding, { investor: inv.id, shareClass: m.shareClass.id }))?.balance ?? '0';
      expect(await chain.balanceOf(m.token.contractAddress, wallets.get(inv.id)!)).toBe(BigInt(Math.round(Number(held) * 1e6)));
    }
    expect(await chain.balanceOf(m.token.contractAddress, wallets.get(doomed.id)!)).toBe(0n);
    expect(await chain.read<bigint>(m.token.contractAddress, TOKEN_ABI, 'totalSupply')).toBe(BigInt(settled.length) * 50_000_000n);
    process.stdout.write(
      `batch split: ${intents.length} batch intents (${intents.filter((t) => t.status === ChainTxStatus.confirmed).length} confirmed) for ${ORDERS} orders, ${doomedOrders.length} failed\n`,
    );
  });
});
