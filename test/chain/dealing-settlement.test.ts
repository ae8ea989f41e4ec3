import type { Hex } from 'viem';
import { DomainEvent } from '../../src/events/event.entity';
import { ChainBatchOrder } from '../../src/modules/settlement/chain-batch.entity';
import { ChainTransaction, ChainTxStatus } from '../../src/modules/chain/chain-transaction.entity';
import { TOKEN_ABI } from '../../src/modules/chain/contracts';
import { Holding } from '../../src/modules/holding/holding.entity';
import { HoldingMovement } from '../../src/modules/holding/holding-movement.entity';
import { Order } from '../../src/modules/order/order.entity';
import type { EntityRecord } from '../../src/persistence/read-record';
import { aDealingDateNav, anInvestor } from '../support/factories';
import { aOneStepOrder } from '../support/one-step.factories';
import { eventually, randomWallet } from '../support/chain';
import { aChainMarket, aWhitelistedWallet, behindTheGateway, onTheWorkerChain, opsCall } from '../support/chain.factories';

/*
 * A dealing date settled in batches on the worker's anvil, with the T-REX contracts the gateway
 * deploys. ORDERS rows (200 by default; DEALING_ORDERS to change it on a slow machine).
 */
jest.setTimeout(600_000);

const CHAIN = '31337';
const ORDERS = Number(process.env.DEALING_ORDERS ?? 200);
const INVESTORS = 5;

const SETTLE = `mutation($sc: ID!, $d: String!) { settleDealingDate(shareClassId: $sc, dealingDate: $d) {
  nav dealingDate tokensMinted inFlight rows { orderId refusal tokens } failed { orderId reason } transactions { id purpose status } } }`;
const PREVIEW = `query($sc: ID!, $d: String!) { dealingSettlementPreview(shareClassId: $sc, dealingDate: $d) {
  nav tokenAddress tokensMinted tokensBurned proceeds inFlight rows { orderId type wallet tokens amount refusal } } }`;

describe('Settling a dealing date in batches on chain', () => {
  const world = onTheWorkerChain();

  it(`${ORDERS} orders, one to a wallet frozen after acceptance: the rest settle in batches, that one fails with its reason, balances on chain match the register; a second run settles nothing`, async () => {
    const { gw, chain, rpcUrl } = world;
    const m = await aChainMarket(gw);
    const investors = [m.investor];
    for (let i = 1; i < INVESTORS; i++) investors.push(await anInvestor(gw.em(), m.distributor, { grants: [m.shareClass], walletChain: null }));
    const frozenInvestor = await anInvestor(gw.em(), m.distributor, { grants: [m.shareClass], walletChain: null });
    const wallets = new Map<string, Hex>();
    for (const inv of [...investors, frozenInvestor]) {
      const address = randomWallet();
      await aWhitelistedWallet(gw, inv.id, address);
      wallets.set(inv.id, address);
    }

    const orders: EntityRecord<Order>[] = [];
    for (let i = 0; i < ORDERS - 1; i++)
      orders.push(await aOneStepOrder(gw, { ...m, investor: investors[i % INVESTORS] }, { amount: '100', stage: 'accepted', chainId: CHAIN }));
    const frozenOrder = await aOneStepOrder(gw, { ...m, investor: frozenInvestor }, { amount: '100', stage: 'accepted', chainId: CHAIN });
    const dealingDate = orders[0].dealingDate!;
    expect(new Set([...orders, frozenOrder].map((o) => o.dealingDate))).toEqual(new Set([dealingDate]));

    // The date's NAV is not published yet (only an earlier one): 409 with a clear message, nothing written.
    const early = await opsCall(gw, SETTLE, { sc: m.shareClass.id, d: '2031-01-02' });
    expect(early.errors?.[0]).toMatchObject({ extensions: { code: 'CONFLICT' } });
    expect(early.errors?.[0]?.message).toBe(
      'No NAV published for dealing date 2031-01-02: the orders of that date are priced at it, so they settle once it is',
    );

    // After acceptance, the issuer's agent freezes one wallet directly on chain.
    const frozenWallet = wallets.get(frozenInvestor.id)!;
    await behindTheGateway(gw, rpcUrl, m.token.contractAddress, TOKEN_ABI, 'setAddressFrozen', [frozenWallet, true]);

    // The date's NAV: 2.00 (orders were accepted at 1.25; they settle at the date's NAV).
    await aDealingDateNav(gw.em(), m.shareClass, '2', dealingDate);

    const preview = (await opsCall(gw, PREVIEW, { sc: m.shareClass.id, d: dealingDate })).data!.dealingSettlementPreview;
    expect(preview.nav).toBe('2');
    expect(preview.rows).toHaveLength(ORDERS);
    expect(preview.rows.filter((r: any) => r.refusal)).toEqual([
      { orderId: frozenOrder.id, type: 'subscription', wallet: frozenWallet, tokens: '50', amount: '100', refusal: `wallet ${frozenWallet} is frozen` },
    ]);
    expect(Number(preview.tokensMinted)).toBe((ORDERS - 1) * 50);
    // A preview writes nothing.
    expect((await gw.em().findOneOrFail(Order, { id: orders[0].id })).settlementNav).toMatch(/^1\.250*$/);

    const t0 = Date.now();
    const run = await opsCall(gw, SETTLE, { sc: m.shareClass.id, d: dealingDate });
    const gatewayMs = Date.now() - t0;
    expect(run.errors).toBeUndefined();
    const first = run.data!.settleDealingDate;
    expect(first.failed).toEqual([{ orderId: frozenOrder.id, reason: `wallet ${frozenWallet} is frozen` }]);
    expect(first.transactions.length).toBeGreaterThanOrEqual(ORDERS > 120 ? 2 : 1);
    expect(first.transactions.every((t: any) => t.purpose === 'settlement.batchMint')).toBe(true);
    expect(await gw.em().count(ChainBatchOrder, {})).toBe(ORDERS - 1);

    // A run while the batches are on their way sends nothing again.
    const inFlight = (await opsCall(gw, SETTLE, { sc: m.shareClass.id, d: dealingDate })).data!.settleDealingDate;
    expect(inFlight.transactions).toEqual([]);
    expect(inFlight.failed).toEqual([]);
    expect(inFlight.inFlight).toHaveLength(ORDERS - 1);

    const settled = await eventually(
      'every order of the date final',
      async () => {
        const rows = await gw.em().find(Order, { id: { $in: orders.map((o) => o.id) }, status: 'settled' });
        return rows.length === orders.length ? rows : undefined;
      },
      300_000,
    );
    const txs = await gw.em().find(ChainTransaction, { purpose: 'settlement.batchMint' });
    expect(txs.every((t) => t.status === ChainTxStatus.confirmed)).toBe(true);
    const batchOf = new Map((await gw.em().find(ChainBatchOrder, {})).map((b) => [b.orderId, txs.find((t) => String(t.id) === String(b.transactionId))!.hash]));
    for (const o of settled) {
      expect(o.transferHash).toBe(batchOf.get(o.id));
      expect(o.settlementTokens).toMatch(/^50(\.0+)?$/);
      expect(o.settlementNav).toMatch(/^2(\.0+)?$/);
    }
    // Each order once, with its own token.transfer_completed naming its batch's hash.
    const completed = (await gw.em().find(DomainEvent, { type: 'order.transition' }))
      .map((e) => ({ id: e.aggregateId, p: e.payload as Record<string, any> }))
      .filter((e) => e.p.webhookEvent === 'token.transfer_completed');
    expect(completed).toHaveLength(ORDERS - 1);
    expect(new Set(completed.map((e) => e.id)).size).toBe(ORDERS - 1);
    for (const e of completed) expect(e.p.transferHash).toBe(batchOf.get(e.id));
    // The register moved once per order, naming its batch: one journal row and one holding.changed each.
    const journal = await gw.em().find(HoldingMovement, { orderId: { $ne: null } });
    expect(journal.map((j) => j.orderId).sort()).toEqual(orders.map((o) => o.id).sort());
    for (const j of journal) expect(j.transferHash).toBe(batchOf.get(j.orderId!));
    const changed = (await gw.em().find(DomainEvent, { type: 'holding.changed' })).map((e) => e.payload as Record<string, any>).filter((p) => p.orderId);
    expect(changed.map((p) => p.orderId).sort()).toEqual(orders.map((o) => o.id).sort());
    for (const p of changed) expect(p.transferHash).toBe(batchOf.get(p.orderId));
    const failed = await gw.em().findOneOrFail(Order, { id: frozenOrder.id });
    expect(failed).toMatchObject({ status: 'failed', failureReason: `wallet ${frozenWallet} is frozen` });

    // On chain, exactly the register.
    let registerTotal = 0n;
    for (const inv of [...investors, frozenInvestor]) {
      const held = (await gw.em().findOne(Holding, { investor: inv.id, shareClass: m.shareClass.id }))?.balance ?? '0';
      const units = BigInt(Math.round(Number(held) * 1e6));
      expect(await chain.balanceOf(m.token.contractAddress, wallets.get(inv.id)!)).toBe(units);
      registerTotal += units;
    }
    expect(registerTotal).toBe(BigInt(ORDERS - 1) * 50_000_000n);
    expect(await chain.read<bigint>(m.token.contractAddress, TOKEN_ABI, 'totalSupply')).toBe(registerTotal);
    const gas = txs.reduce((s, t) => s + BigInt(t.gasUsed!), 0n);
    process.stdout.write(
      `dealing date of ${ORDERS} orders: ${txs.length} batch transactions, ${gas / BigInt(ORDERS - 1)} gas per order, settleDealingDate answered in ${gatewayMs} ms\n`,
    );

    // A second run settles nothing.
    const again = (await opsCall(gw, SETTLE, { sc: m.shareClass.id, d: dealingDate })).data!.settleDealingDate;
    expect(again).toMatchObject({ rows: [], failed: [], transactions: [], inFlight: [] });
    expect(await gw.em().count(ChainTransaction, { purpose: 'settlement.batchMint' })).toBe(txs.length);
  });
});
