import { decimalString as dec } from '../../src/common/money';
import { DomainEvent } from '../../src/events/event.entity';
import { Holding } from '../../src/modules/holding/holding.entity';
import { HoldingLot } from '../../src/modules/holding/holding-lot.entity';
import { HoldingMovement } from '../../src/modules/holding/holding-movement.entity';
import { OrderType } from '../../src/modules/order/order.entity';
import { aHolding, aMarket, anInvestor } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';

/**
 * The holding ledger's API as the settlement on chain will call it: in a transaction, once per
 * order whatever the number of calls, and never changing a holding outside a transaction.
 */
describe('Holding ledger', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  const ledger = () => gw.gateway.services.ledger;
  const orderOf = (m: Awaited<ReturnType<typeof aMarket>>, id: string, type: OrderType) => ({
    id,
    type,
    investor: m.investor,
    shareClass: m.shareClass,
    distributor: m.distributor,
  });
  const balanceOf = async (m: Awaited<ReturnType<typeof aMarket>>) => {
    const balance = (await gw.em().findOne(Holding, { investor: m.investor.id, shareClass: m.shareClass.id }))?.balance;
    return balance === undefined ? undefined : dec(balance);
  };
  const changedEvents = async () => gw.em().count(DomainEvent, { type: 'holding.changed' });

  it('settles an order once: a second call, in another transaction, moves nothing and says so', async () => {
    // given an investor with no holding yet
    const m = await aMarket(gw.em(), gw.clock.now());
    const at = gw.clock.now();
    const order = orderOf(m, 'ord_000000000000000000000001', OrderType.subscription);
    // when the same settlement is applied twice
    const first = await gw.em().transactional((em) => ledger().settle(em, { order, tokens: '12.5', at, transferHash: '0xabc' }));
    const second = await gw.em().transactional((em) => ledger().settle(em, { order, tokens: '12.5', at, transferHash: '0xabc' }));
    // then the holding moved once: one lot settled at `at`, one journal row, one event
    expect(first).toEqual({ outcome: 'moved', change: '12.5', balance: '12.5' });
    expect(second).toEqual({ outcome: 'already' });
    expect(await balanceOf(m)).toBe('12.5');
    const lots = await gw.em().find(HoldingLot, { investor: m.investor.id });
    expect(lots.map((l) => [dec(l.quantity), dec(l.remaining), l.settledAt.getTime(), l.orderId])).toEqual([['12.5', '12.5', at.getTime(), order.id]]);
    const journal = await gw.em().find(HoldingMovement, { investor: m.investor.id });
    expect(journal.map((j) => [dec(j.change), dec(j.balance), j.orderId, j.transferHash])).toEqual([['12.5', '12.5', order.id, '0xabc']]);
    expect(await changedEvents()).toBe(1);
  });

  it('a redemption burning more than is held is `short` and changes nothing; within the holding it takes the oldest lots first', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    await aHolding(gw.em(), m.investor, m.shareClass, '10', new Date(gw.clock.now().getTime() - 86_400_000));
    await aHolding(gw.em(), m.investor, m.shareClass, '5');
    const at = gw.clock.now();
    const short = await gw
      .em()
      .transactional((em) => ledger().settle(em, { order: orderOf(m, 'ord_000000000000000000000002', OrderType.redemption), tokens: '16', at }));
    expect(short).toEqual({ outcome: 'short', balance: '15' });
    expect(await changedEvents()).toBe(0);
    const burnt = await gw
      .em()
      .transactional((em) => ledger().settle(em, { order: orderOf(m, 'ord_000000000000000000000003', OrderType.redemption), tokens: '12', at }));
    expect(burnt).toEqual({ outcome: 'moved', change: '-12', balance: '3' });
    const lots = await gw.em().find(HoldingLot, { investor: m.investor.id }, { orderBy: { settledAt: 'asc' } });
    expect(lots.map((l) => dec(l.remaining))).toEqual(['0', '3']);
  });

  it('settleMany moves each order of a batch exactly as settle would, one after the other: lots, journal, balances and events alike; `already` and `short` per order', async () => {
    // given two pairs of investors with the same holdings: two lots of 10 (two days old) and 5 each
    const m = await aMarket(gw.em(), gw.clock.now());
    const [a1, a2, b1, b2] = [m.investor, ...(await Promise.all([1, 2, 3].map(() => anInvestor(gw.em(), m.distributor, { grants: [m.shareClass] }))))];
    const at = gw.clock.now();
    const [twoDaysAgo, aDayAgo] = [new Date(at.getTime() - 2 * 86_400_000), new Date(at.getTime() - 86_400_000)];
    for (const inv of [a1, a2, b1, b2]) {
      await aHolding(gw.em(), inv, m.shareClass, '10', twoDaysAgo);
      await aHolding(gw.em(), inv, m.shareClass, '5', aDayAgo);
    }
    const orders = (one: typeof a1, two: typeof a1, p: string) =>
      [
        { order: { ...orderOf(m, `ord_${p}1`, OrderType.subscription), investor: one }, tokens: '7.5' },
        { order: { ...orderOf(m, `ord_${p}2`, OrderType.redemption), investor: one }, tokens: '12' },
        { order: { ...orderOf(m, `ord_${p}3`, OrderType.redemption), investor: two }, tokens: '16' },
        { order: { ...orderOf(m, `ord_${p}4`, OrderType.redemption), investor: two }, tokens: '15' },
        { order: { ...orderOf(m, `ord_${p}5`, OrderType.redemption), investor: one }, tokens: '8' },
      ].map((s) => ({ ...s, at, transferHash: '0xbatch' }));
    // one order of each list was settled before
    await gw.em().transactional((em) => ledger().settle(em, orders(a1, a2, 'a')[0]));
    await gw.em().transactional((em) => ledger().settle(em, orders(b1, b2, 'b')[0]));
    // when the first list is settled as a batch and the second one order at a time
    const many = await gw.em().transactional((em) => ledger().settleMany(em, orders(a1, a2, 'a')));
    const one: unknown[] = [];
    for (const s of orders(b1, b2, 'b')) one.push(await gw.em().transactional((em) => ledger().settle(em, s)));
    // then the answers, the lots, the journal, the balances and the events are the same
    expect([...many.values()]).toEqual(one);
    expect(one).toEqual([
      { outcome: 'already' },
      { outcome: 'moved', change: '-12', balance: '10.5' },
      { outcome: 'short', balance: '15' },
      { outcome: 'moved', change: '-15', balance: '0' },
      { outcome: 'moved', change: '-8', balance: '2.5' },
    ]);
    const state = async (inv: typeof a1) => ({
      balance: (await gw.em().findOneOrFail(Holding, { investor: inv.id, shareClass: m.shareClass.id })).balance,
      lots: (await gw.em().find(HoldingLot, { investor: inv.id }, { orderBy: { settledAt: 'asc', id: 'asc' } })).map((l) => [
        dec(l.quantity),
        dec(l.remaining),
        l.settledAt.getTime(),
        l.orderId?.slice(5) ?? null,
      ]),
      journal: (await gw.em().find(HoldingMovement, { investor: inv.id }, { orderBy: { id: 'asc' } })).map((j) => [
        dec(j.change),
        dec(j.balance),
        j.orderId?.slice(5) ?? null,
        j.transferHash ?? null,
        j.orderId ? j.at.getTime() : 'opening',
      ]),
      events: (await gw.em().find(DomainEvent, { type: 'holding.changed', aggregateId: `${inv.id}:${m.shareClass.id}` }, { orderBy: { position: 'asc' } })).map(
        (e) => {
          const { investorId: _, orderId, ...rest } = e.payload;
          return { ...rest, orderId: typeof orderId === 'string' ? orderId.slice(5) : null };
        },
      ),
    });
    expect(await state(a1)).toEqual(await state(b1));
    expect(await state(a2)).toEqual(await state(b2));
    expect((await state(a1)).lots).toEqual([
      ['10', '0', twoDaysAgo.getTime(), null],
      ['5', '0', aDayAgo.getTime(), null],
      ['7.5', '2.5', at.getTime(), '1'],
    ]);
  });

  it('chainMoveMany books each arrival on chain exactly as chainMove would, one after the other: holdings created, lots, journal, balances and events alike', async () => {
    // given two pairs of investors: one of each pair holds 10 tokens, the other holds none (no holding row)
    const m = await aMarket(gw.em(), gw.clock.now());
    const [a1, a2, b1, b2] = [m.investor, ...(await Promise.all([1, 2, 3].map(() => anInvestor(gw.em(), m.distributor, { grants: [m.shareClass] }))))];
    const at = gw.clock.now();
    for (const inv of [a1, b1]) await aHolding(gw.em(), inv, m.shareClass, '10', new Date(at.getTime() - 86_400_000));
    const arrivals = (one: typeof a1, two: typeof a1) =>
      [
        [one, '1.5'],
        [two, '2'],
        [one, '0.25'],
      ].map(([inv, change]) => ({
        investorId: (inv as typeof a1).id,
        shareClassId: m.shareClass.id,
        distributorId: m.distributor.id,
        change: change as string,
        at,
        transferHash: '0xmint',
        reason: 'distribution 1 reinvested',
        payload: { distributionId: '1' },
      }));
    // when the first pair's arrivals are booked as one batch and the second pair's one at a time
    await gw.em().transactional((em) => ledger().chainMoveMany(em, arrivals(a1, a2)));
    for (const c of arrivals(b1, b2)) await gw.em().transactional((em) => ledger().chainMove(em, c));
    // then each holding reads the same
    const state = async (inv: typeof a1) => ({
      balance: dec((await gw.em().findOneOrFail(Holding, { investor: inv.id, shareClass: m.shareClass.id })).balance),
      lots: (await gw.em().find(HoldingLot, { investor: inv.id }, { orderBy: { id: 'asc' } })).map((l) => [
        dec(l.quantity),
        dec(l.remaining),
        l.settledAt.getTime(),
        l.source,
        l.reason ?? null,
      ]),
      journal: (await gw.em().find(HoldingMovement, { investor: inv.id }, { orderBy: { id: 'asc' } })).map((j) => [
        dec(j.change),
        dec(j.balance),
        j.source,
        j.transferHash ?? null,
        j.reason ?? null,
        j.source === 'opening' ? 'opening' : j.at.getTime(),
      ]),
      events: (await gw.em().find(DomainEvent, { type: 'holding.changed', aggregateId: `${inv.id}:${m.shareClass.id}` }, { orderBy: { position: 'asc' } })).map(
        (e) => ({ ...e.payload, investorId: null, distributorId: e.distributorId }),
      ),
    });
    expect(await state(a1)).toEqual(await state(b1));
    expect(await state(a2)).toEqual(await state(b2));
    expect((await state(a1)).balance).toBe('11.75');
    expect((await state(a2)).events).toEqual([
      {
        investorId: null,
        shareClassId: m.shareClass.id,
        transferHash: '0xmint',
        distributionId: '1',
        change: '2',
        balance: '2',
        distributorId: m.distributor.id,
      },
    ]);
  });

  it('an ops adjustment out never takes tokens promised to open redemptions (free = balance − reserved)', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    await aHolding(gw.em(), m.investor, m.shareClass, '10');
    await gw.api('POST', '/orders/redeem', {
      host: m.hostA,
      body: { distributorId: m.distributor.id, investorId: m.investor.id, shareClassId: m.shareClass.id, tokenCount: 4 },
    });
    const adjust = (quantity: string) =>
      gw.em().transactional((em) =>
        ledger().adjust(em, {
          investorId: m.investor.id,
          shareClassId: m.shareClass.id,
          distributorId: m.distributor.id,
          quantity,
          reason: 'correction',
          at: gw.clock.now(),
          settledAt: gw.clock.now(),
        }),
      );
    await expect(adjust('-7')).rejects.toThrow('quantity exceeds holdings');
    await adjust('-6');
    const held = await gw.em().transactional((em) => ledger().lock(em, { investorId: m.investor.id, shareClassId: m.shareClass.id }));
    expect([held.balance.toFixed(), held.reserved.toFixed(), held.free.toFixed()]).toEqual(['4', '4', '0']);
  });

  it('refuses to work outside a transaction', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    await expect(
      ledger().settle(gw.em(), { order: orderOf(m, 'ord_000000000000000000000004', OrderType.subscription), tokens: '1', at: gw.clock.now() }),
    ).rejects.toThrow('the holding ledger works inside a transaction');
    expect(await balanceOf(m)).toBeUndefined();
  });
});
