import { ChainTransaction } from '../../src/modules/chain/chain-transaction.entity';
import { Order } from '../../src/modules/order/order.entity';
import { SettlementTransferRecord } from '../../src/modules/order/settlement-transfer.entity';
import { randomWallet } from '../support/chain';
import { aChainMarket, aWhitelistedWallet, finalOrder, onTheWorkerChain, opsCall } from '../support/chain.factories';
import { aGrant, aMarket, aNav, aShareClass } from '../support/factories';
import { aDealingDateNav, aOneStepOrder, aTransferHash } from '../support/one-step.factories';
import { InvestorGrant } from '../../src/modules/investor/investor.entity';

/*
 * Two settlement rules of docs/custody.md on the worker's anvil and real T-REX contracts:
 * one transfer settles one order (the transfer's chain, hash and log index are a key in the
 * database), and an order settles at its own dealing date's NAV, by the one pricing rule.
 */
jest.setTimeout(600_000);

const CHAIN = '31337';
const SETTLE = `mutation($id: ID!, $h: String) { settleOneStepOrder(orderId: $id, transferHash: $h) { id status settlementTokens settlementNav transferHash } }`;
const SETTLE_DATE = `mutation($sc: ID!, $d: String!) { settleDealingDate(shareClassId: $sc, dealingDate: $d) { failed { orderId reason } transactions { id } } }`;

describe('One transfer settles one order', () => {
  const world = onTheWorkerChain();

  it('a hash that settled an order (its Transfer log) cannot settle another: 409 naming the order it settled; the other stays accepted', async () => {
    const { gw, chain } = world;
    const m = await aChainMarket(gw);
    const wallet = randomWallet();
    await aWhitelistedWallet(gw, m.investor.id, wallet);
    // given two accepted subscriptions of the same investor, wallet and amount: their transfers look alike
    const first = await aOneStepOrder(gw, m, { amount: '1000', stage: 'accepted', chainId: CHAIN });
    const second = await aOneStepOrder(gw, m, { amount: '1000', stage: 'accepted', chainId: CHAIN });
    await aDealingDateNav(gw, first);
    expect((await opsCall(gw, SETTLE, { id: first.id })).errors).toBeUndefined();
    const settled = await finalOrder(gw, first.id);
    expect(settled.status).toBe('settled');
    // when ops settle the second with the first's hash
    const res = await opsCall(gw, SETTLE, { id: second.id, h: settled.transferHash });
    // then it is refused, naming the order the transfer settled, and nothing moved
    expect(res.errors?.[0]).toMatchObject({
      message: `transferHash ${settled.transferHash} already settled order ${first.id}`,
      extensions: { code: 'CONFLICT' },
    });
    expect((await gw.em().findOneOrFail(Order, { id: second.id })).status).toBe('accepted');
    expect(await chain.balanceOf(m.token.contractAddress, wallet)).toBe(800n * 10n ** 6n);
  });

  it("a batch transaction's rows each own their log: a third order cannot settle with the batch's hash", async () => {
    const { gw } = world;
    const m = await aChainMarket(gw);
    await aWhitelistedWallet(gw, m.investor.id, randomWallet());
    const rows = [
      await aOneStepOrder(gw, m, { amount: '100', stage: 'accepted', chainId: CHAIN }),
      await aOneStepOrder(gw, m, { amount: '100', stage: 'accepted', chainId: CHAIN }),
    ];
    await aDealingDateNav(gw, rows[0]);
    const run = await opsCall(gw, SETTLE_DATE, { sc: m.shareClass.id, d: rows[0].dealingDate });
    expect(run.errors).toBeUndefined();
    expect(run.data.settleDealingDate).toMatchObject({ failed: [], transactions: [expect.anything()] });
    const done = await Promise.all(rows.map((r) => finalOrder(gw, r.id)));
    expect(done.map((o) => o.status)).toEqual(['settled', 'settled']);
    const hash = done[0].transferHash!;
    expect(done[1].transferHash).toBe(hash);
    // each row recorded with its own log of the batch's transaction
    const records = await gw.em().find(SettlementTransferRecord, { transferHash: hash.toLowerCase() }, { orderBy: { logIndex: 'asc' } });
    expect(records.map((r) => r.orderId).sort()).toEqual(rows.map((r) => r.id).sort());
    expect(new Set(records.map((r) => r.logIndex)).size).toBe(2);
    // when a third order of the same wallet and amount is settled with the batch's hash
    const third = await aOneStepOrder(gw, m, { amount: '100', stage: 'accepted', chainId: CHAIN });
    const res = await opsCall(gw, SETTLE, { id: third.id, h: hash });
    expect(res.errors?.[0]).toMatchObject({ message: `transferHash ${hash} already settled order ${records[0].orderId}`, extensions: { code: 'CONFLICT' } });
    expect((await gw.em().findOneOrFail(Order, { id: third.id })).status).toBe('accepted');
  });

  it('two requests settling orders of two share classes with one hash at once (chain not read): one settles, the other is 409 naming it', async () => {
    const { gw } = world;
    const em = gw.em();
    const m = await aMarket(em, gw.clock.now());
    const other = await aShareClass(em);
    await aGrant(em, m.distributor, other);
    await aNav(em, other, '2', new Date(gw.clock.now().getTime() - 60_000));
    em.create(InvestorGrant, { investor: m.investor, shareClass: other });
    await em.flush();
    const a = await aOneStepOrder(gw, m, { amount: '1000', stage: 'accepted' });
    const b = await aOneStepOrder(gw, { ...m, shareClass: other }, { amount: '1000', stage: 'accepted' });
    await aDealingDateNav(gw, a);
    await aDealingDateNav(gw, b);
    const hash = aTransferHash();
    const answers = await Promise.all([a, b].map((o) => opsCall(gw, SETTLE, { id: o.id, h: hash })));
    const winner = answers.findIndex((r) => !r.errors);
    expect(winner).toBeGreaterThanOrEqual(0);
    const loser = answers[1 - winner];
    expect(loser.errors?.[0]).toMatchObject({ message: `transferHash ${hash} already settled order ${[a, b][winner].id}`, extensions: { code: 'CONFLICT' } });
    expect((await gw.em().findOneOrFail(Order, { id: [a, b][1 - winner].id })).status).toBe('accepted');
  });
});

describe("An order settles at its own dealing date's NAV", () => {
  const world = onTheWorkerChain();

  it("acceptance shows the live NAV's estimate; settlement waits (409 naming the date) for the dealing date's NAV, then mints at it", async () => {
    const { gw, chain } = world;
    const m = await aChainMarket(gw);
    const wallet = randomWallet();
    await aWhitelistedWallet(gw, m.investor.id, wallet);
    // given an order placed a week ahead: its dealing date has no NAV yet (the market priced only this week's)
    gw.clock.set(new Date(Date.now() + 7 * 86_400_000));
    const order = await aOneStepOrder(gw, m, { amount: '1000', stage: 'accepted', chainId: CHAIN });
    expect(order).toMatchObject({ settlementTokens: '800', settlementNav: '1.25' }); // the estimate at the live NAV
    const notYet = `No NAV published for dealing date ${order.dealingDate}: the orders of that date are priced at it, so they settle once it is`;
    for (const h of [undefined, aTransferHash()]) {
      const res = await opsCall(gw, SETTLE, { id: order.id, h });
      expect(res.errors?.[0]).toMatchObject({ message: notYet, extensions: { code: 'CONFLICT' } });
    }
    expect(await gw.em().count(ChainTransaction, { correlation: `order:${order.id}` })).toBe(0);
    // when the dealing date's NAV is published at 2
    await aDealingDateNav(gw, order, '2');
    const res = await opsCall(gw, SETTLE, { id: order.id });
    expect(res.errors).toBeUndefined();
    expect(res.data.settleOneStepOrder).toMatchObject({ status: 'accepted', settlementTokens: '500', settlementNav: '2' });
    // then it mints at that NAV, as the dealing date's run would have
    const done = await finalOrder(gw, order.id);
    expect([done.status, Number(done.settlementTokens), Number(done.settlementNav)]).toEqual(['settled', 500, 2]);
    expect(await chain.balanceOf(m.token.contractAddress, wallet)).toBe(500n * 10n ** 6n);
  });
});
