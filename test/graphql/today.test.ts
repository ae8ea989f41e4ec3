import { ChainMovement, ChainMovementKind } from '../../src/modules/chain/chain-movement.entity';
import { ChainTransaction, ChainTxStatus } from '../../src/modules/chain/chain-transaction.entity';
import { runInScope } from '../../src/common/request-scope';
import { bookOpening } from '../../src/modules/holding/holding-ledger';
import { aDistributor, aGrant, anInvestor, aNav, aShareClass, CHAIN } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aOneStepOrder } from '../support/one-step.factories';
import { asOps } from '../support/ops.factories';

const TODAY = `{ today {
  ordersToAcceptCount ordersToAccept { id flow status type shareClassName amount currency dealingDate }
  navsDue { shareClassName timeZone dealingDate openOrders pendingNavs }
  settlementsDue { shareClassName dealingDate expectedSettlementDate orders navPublished }
  approvalsWaiting { kind count }
  failedTransfers { purpose status orderId investorId revertReason }
  unexplainedMovements { shareClassName movements tokens }
  aum { shareClassName currency nav tokens aum previousAum change }
} }`;

/*
 * The desk's day over real HTTP: each list of `today` against a world whose every figure the
 * test knows. The clock is the gateway's own (ManualClock): Monday 6 May 2030 an order is
 * placed and accepted; on Wednesday 8 May the desk opens the console.
 */
describe('today: what the desk has to do (GraphQL)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  async function world() {
    const em = gw.em();
    gw.clock.set(new Date(Date.UTC(2030, 4, 6, 10)));
    const shareClass = await aShareClass(em, { currency: 'EUR', meta: { name: 'Today EUR', manager: 'M' } });
    const distributor = await aDistributor(em, [], { name: 'Today Distributor' });
    await aGrant(em, distributor, shareClass);
    const investor = await anInvestor(em, distributor, { grants: [shareClass] });
    await aNav(em, shareClass, '10', new Date(Date.UTC(2030, 4, 3)));
    // 100 tokens booked on 4 May, between the two NAVs
    const booked = new Date(Date.UTC(2030, 4, 4));
    await runInScope({ actor: 'factory' }, () =>
      em.transactional((tem) => bookOpening(tem, { investorId: investor.id, shareClassId: shareClass.id, quantity: '100', settledAt: booked, at: booked })),
    );
    await aNav(em, shareClass, '10.5', new Date(Date.UTC(2030, 4, 5, 12)));
    const accepted = await aOneStepOrder(gw, { distributor, investor, shareClass }, { amount: '1000', stage: 'accepted' });
    gw.clock.set(new Date(Date.UTC(2030, 4, 8, 9)));
    const pending = await aOneStepOrder(gw, { distributor, investor, shareClass }, { amount: '2500' });
    return { shareClass, investor, accepted, pending };
  }

  it('lists the orders to accept, the NAVs due (the past date with orders, today), the settlement due and the AUM with its change', async () => {
    const { pending } = await world();
    const { today } = await asOps(gw, TODAY);
    expect(today.ordersToAcceptCount).toBe(1);
    expect(today.ordersToAccept).toEqual([
      {
        id: pending.id,
        flow: 'one_step',
        status: 'pending',
        type: 'subscription',
        shareClassName: 'Today EUR',
        amount: '2500',
        currency: 'EUR',
        dealingDate: '2030-05-08',
      },
    ]);
    expect(today.navsDue).toEqual([
      { shareClassName: 'Today EUR', timeZone: 'UTC', dealingDate: '2030-05-06', openOrders: 1, pendingNavs: 0 },
      { shareClassName: 'Today EUR', timeZone: 'UTC', dealingDate: '2030-05-08', openOrders: 1, pendingNavs: 0 },
    ]);
    expect(today.settlementsDue).toEqual([
      { shareClassName: 'Today EUR', dealingDate: '2030-05-06', expectedSettlementDate: '2030-05-07', orders: 1, navPublished: false },
    ]);
    // 100 tokens × 10.5, against 0 tokens at the NAV of 3 May
    expect(today.aum).toEqual([{ shareClassName: 'Today EUR', currency: 'EUR', nav: '10.5', tokens: '100', aum: '1050', previousAum: '0', change: '1050' }]);
    expect(today.approvalsWaiting).toEqual([]);
    expect(today.failedTransfers).toEqual([]);
    expect(today.unexplainedMovements).toEqual([]);
  });

  it('a NAV struck on the dealing date takes it off the NAVs due and lets its settlement go; requests, failed transactions and unexplained movements show', async () => {
    const { shareClass, investor, accepted } = await world();
    const em = gw.em();
    await aNav(em, shareClass, '11', new Date(Date.UTC(2030, 4, 6, 16)));
    await asOps(gw, `mutation($i: HoldingAdjustmentInput!) { requestHoldingAdjustment(input: $i) { id } }`, {
      i: { investorId: investor.id, shareClassId: shareClass.id, quantity: '5', reason: 'transfer in from the previous register' },
    });
    const now = gw.clock.now();
    const common = { chainId: CHAIN, fromAddress: `0x${'11'.repeat(20)}`, data: '0x', requiredConfirmations: 1, createdAt: now, updatedAt: now };
    em.create(ChainTransaction, {
      ...common,
      purpose: 'settlement.mint',
      correlation: `order:${accepted.id}`,
      status: ChainTxStatus.reverted,
      revertReason: 'wallet is frozen',
    });
    em.create(ChainTransaction, { ...common, purpose: 'settlement.mint', status: ChainTxStatus.confirmed });
    const move = { chainId: CHAIN, tokenAddress: `0x${'22'.repeat(20)}`, shareClassId: shareClass.id, blockNumber: '7', blockHash: `0x${'33'.repeat(32)}` };
    const to = { fromAddress: `0x${'00'.repeat(20)}`, toAddress: `0x${'44'.repeat(20)}`, observedAt: now };
    em.create(ChainMovement, { ...move, ...to, logIndex: 0, transactionHash: `0x${'55'.repeat(32)}`, tokens: '42', kind: ChainMovementKind.issuance });
    em.create(ChainMovement, { ...move, ...to, logIndex: 1, transactionHash: `0x${'66'.repeat(32)}`, tokens: '1', kind: ChainMovementKind.transfer });
    await em.flush();

    const { today } = await asOps(gw, TODAY);
    expect(today.navsDue.map((n: { dealingDate: string }) => n.dealingDate)).toEqual(['2030-05-08']);
    expect(today.settlementsDue).toEqual([
      { shareClassName: 'Today EUR', dealingDate: '2030-05-06', expectedSettlementDate: '2030-05-07', orders: 1, navPublished: true },
    ]);
    expect(today.approvalsWaiting).toEqual([{ kind: 'holding_adjustment', count: 1 }]);
    expect(today.failedTransfers).toEqual([
      { purpose: 'settlement.mint', status: 'reverted', orderId: accepted.id, investorId: investor.id, revertReason: 'wallet is frozen' },
    ]);
    expect(today.unexplainedMovements).toEqual([{ shareClassName: 'Today EUR', movements: 1, tokens: '42' }]);
    // the live NAV is the 6 May one: 100 × 11 against 100 × 10.5
    expect(today.aum).toEqual([{ shareClassName: 'Today EUR', currency: 'EUR', nav: '11', tokens: '100', aum: '1100', previousAum: '1050', change: '50' }]);
  });

  it('answers no one without an ops token', async () => {
    const res = await gw.graphql(TODAY, {});
    expect(res.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});
