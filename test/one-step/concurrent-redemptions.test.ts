import { decimalString } from '../../src/common/money';
import { Holding } from '../../src/modules/holding/holding.entity';
import { Order, OrderType } from '../../src/modules/order/order.entity';
import { bearerOf } from '../support/auth.factories';
import { aHolding, aMarket } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aDealingDateNav, aOneStepOrder, aTransferHash } from '../support/one-step.factories';

describe('Concurrent redemptions against one holding', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ poolMax: 12 });
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  const openRedemptions = async (investorId: string) =>
    (await gw.em().find(Order, { investor: investorId, type: OrderType.redemption, status: { $in: ['pending', 'accepted'] } })).reduce(
      (sum, o) => sum + Number(o.tokenCount),
      0,
    );

  it('twelve simultaneous redemptions of 30 tokens from a holding of 100 (R and O at once): exactly three are placed, never more than held', async () => {
    // given a holding of 100 tokens
    const m = await aMarket(gw.em(), gw.clock.now());
    await aHolding(gw.em(), m.investor, m.shareClass, '100');
    const headers = await bearerOf(gw, m.distributor);
    const viaR = () =>
      gw.api('POST', '/orders/redeem', {
        host: m.hostA,
        body: { distributorId: m.distributor.id, investorId: m.investor.id, shareClassId: m.shareClass.id, tokenCount: 30 },
      });
    const viaO = () =>
      gw.api('POST', '/orders/redeem', {
        headers,
        body: { distributorId: m.distributor.id.replace('DT', 'PT'), userId: m.investor.id.replace('IN', 'US'), shareClassId: m.shareClass.id, tokenCount: 30 },
      });
    // when twelve redemptions race
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? viaO() : viaR())));
    // then three succeed and the others are refused with the documented message
    const placed = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    expect(placed.length).toBe(3);
    expect(refused.map((r) => [r.status, r.body.errorMsg])).toEqual(Array(9).fill([400, 'tokenCount exceeds holdings']));
    expect(await openRedemptions(m.investor.id)).toBe(90);
  });

  it('redemptions racing settlements of other redemptions never promise more than the holding', async () => {
    // given 100 tokens, 60 of them already in two accepted redemptions
    const m = await aMarket(gw.em(), gw.clock.now());
    await aHolding(gw.em(), m.investor, m.shareClass, '100');
    const a = await aOneStepOrder(gw, m, { type: 'redeem', tokenCount: '30', stage: 'accepted' });
    const b = await aOneStepOrder(gw, m, { type: 'redeem', tokenCount: '30', stage: 'accepted' });
    await aDealingDateNav(gw, a);
    const opsToken = await gw.opsToken();
    // Each settlement names its own transfer: one transfer settles one order.
    const settle = (id: string) =>
      gw.graphql(`mutation($id: ID!) { settleOneStepOrder(orderId: $id, transferHash: "${aTransferHash()}") { status } }`, { id }, { token: opsToken });
    const redeem = () =>
      gw.api('POST', '/orders/redeem', {
        host: m.hostA,
        body: { distributorId: m.distributor.id, investorId: m.investor.id, shareClassId: m.shareClass.id, tokenCount: 15 },
      });
    // when both settle while six redemptions of 15 race
    const results = await Promise.all([settle(a.id), settle(b.id), ...Array.from({ length: 6 }, redeem)]);
    // then the 40 free tokens go to exactly two new redemptions, and the holding is 40
    const redemptions = results.slice(2) as Awaited<ReturnType<typeof redeem>>[];
    expect(redemptions.filter((r) => r.status === 200).length).toBe(2);
    const holding = await gw.em().findOneOrFail(Holding, { investor: m.investor.id, shareClass: m.shareClass.id });
    expect(decimalString(holding.balance)).toBe('40');
    expect(await openRedemptions(m.investor.id)).toBe(30);
  });
});
