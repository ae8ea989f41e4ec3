import { decimalString as dec } from '../../src/common/money';
import { DomainEvent } from '../../src/events/event.entity';
import { Holding } from '../../src/modules/holding/holding.entity';
import { HoldingLot } from '../../src/modules/holding/holding-lot.entity';
import { HoldingMovement } from '../../src/modules/holding/holding-movement.entity';
import { OrderType } from '../../src/modules/order/order.entity';
import { aHolding, aMarket } from '../support/factories';
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
  const orderOf = (m: Awaited<ReturnType<typeof aMarket>>, id: string, type: OrderType) => ({ id, type, investor: m.investor, shareClass: m.shareClass, distributor: m.distributor });
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
    const short = await gw.em().transactional((em) => ledger().settle(em, { order: orderOf(m, 'ord_000000000000000000000002', OrderType.redemption), tokens: '16', at }));
    expect(short).toEqual({ outcome: 'short', balance: '15' });
    expect(await changedEvents()).toBe(0);
    const burnt = await gw.em().transactional((em) => ledger().settle(em, { order: orderOf(m, 'ord_000000000000000000000003', OrderType.redemption), tokens: '12', at }));
    expect(burnt).toEqual({ outcome: 'moved', change: '-12', balance: '3' });
    const lots = await gw.em().find(HoldingLot, { investor: m.investor.id }, { orderBy: { settledAt: 'asc' } });
    expect(lots.map((l) => dec(l.remaining))).toEqual(['0', '3']);
  });

  it('an ops adjustment out never takes tokens promised to open redemptions (free = balance − reserved)', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    await aHolding(gw.em(), m.investor, m.shareClass, '10');
    await gw.api('POST', '/orders/redeem', { host: m.hostA, body: { distributorId: m.distributor.id, investorId: m.investor.id, shareClassId: m.shareClass.id, tokenCount: 4 } });
    const adjust = (quantity: string) =>
      gw.em().transactional((em) => ledger().adjust(em, { investorId: m.investor.id, shareClassId: m.shareClass.id, distributorId: m.distributor.id, quantity, reason: 'correction', at: gw.clock.now(), settledAt: gw.clock.now() }));
    await expect(adjust('-7')).rejects.toThrow('quantity exceeds holdings');
    await adjust('-6');
    const held = await gw.em().transactional((em) => ledger().lock(em, { investorId: m.investor.id, shareClassId: m.shareClass.id }));
    expect([held.balance.toFixed(), held.reserved.toFixed(), held.free.toFixed()]).toEqual(['4', '4', '0']);
  });

  it('refuses to work outside a transaction', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    await expect(ledger().settle(gw.em(), { order: orderOf(m, 'ord_000000000000000000000004', OrderType.subscription), tokens: '1', at: gw.clock.now() })).rejects.toThrow(
      'the holding ledger works inside a transaction',
    );
    expect(await balanceOf(m)).toBeUndefined();
  });
});
