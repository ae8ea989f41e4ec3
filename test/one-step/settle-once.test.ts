import { DomainEvent } from '../../src/events/event.entity';
import { acceptedOrder } from '../../src/modules/settlement/accepted-order';
import { lockOneStepOrder } from '../../src/modules/order/order-locks';
import { Holding } from '../../src/modules/holding/holding.entity';
import { HoldingMovement } from '../../src/modules/holding/holding-movement.entity';
import { Order } from '../../src/modules/order/order.entity';
import { aMarket } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aDealingDateNav, aOneStepOrder, TRANSFER_HASH } from '../support/one-step.factories';

/**
 * An order settles once, whoever reports its transfer and however often: the holding ledger's
 * journal says whether the order moved the holding already, and the order's settlement follows
 * it — no second holding change, no second `token.transfer_completed`.
 */
describe('A one-step order settles exactly once', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  const SETTLE = `mutation($id: ID!, $h: String) { settleOneStepOrder(orderId: $id, transferHash: $h) { status transferHash } }`;
  const completed = async (orderId: string) =>
    (await gw.em().find(DomainEvent, { type: 'order.transition', aggregateId: orderId })).filter((e) => e.payload.webhookEvent === 'token.transfer_completed');
  const changed = async (orderId: string) => (await gw.em().find(DomainEvent, { type: 'holding.changed' })).filter((e) => e.payload.orderId === orderId);
  const balance = async (m: Awaited<ReturnType<typeof aMarket>>) =>
    (await gw.em().findOneOrFail(Holding, { investor: m.investor.id, shareClass: m.shareClass.id })).balance;

  it('a settlement reported again for a settled order records nothing more: one event, one holding change', async () => {
    // given an accepted subscription of 800 tokens settled by ops with its transfer hash
    const m = await aMarket(gw.em(), gw.clock.now());
    const order = await aOneStepOrder(gw, m, { amount: '1000', stage: 'accepted' });
    await aDealingDateNav(gw, order);
    const first = await gw.graphql(SETTLE, { id: order.id, h: TRANSFER_HASH }, { token: await gw.opsToken() });
    expect(first.body.data.settleOneStepOrder).toEqual({ status: 'settled', transferHash: TRANSFER_HASH });
    const settled = await gw.em().findOneOrFail(Order, { id: order.id }, { populate: ['history'] });
    const [seq, entries, updatedAt] = [settled.eventSeq, settled.history.length, settled.updatedAt.getTime()];
    // when the same transfer is reported again for the locked order (a late duplicate of the chain's outcome)
    const outcomes = gw.gateway.services.oneStepOutcomes;
    const again = await gw
      .em()
      .transactional(async (em) => outcomes.settleLocked(em, acceptedOrder(await lockOneStepOrder(em, order.id)), TRANSFER_HASH, 'chain', false));
    // then nothing more is written
    expect(again.status).toBe('settled');
    expect(await completed(order.id)).toHaveLength(1);
    expect(await changed(order.id)).toHaveLength(1);
    expect(Number(await balance(m))).toBe(800);
    const now = await gw.em().findOneOrFail(Order, { id: order.id }, { populate: ['history'] });
    expect([now.eventSeq, now.history.length, now.updatedAt.getTime()]).toEqual([seq, entries, updatedAt]);
  });

  it('an accepted order whose holding the journal shows moved already settles without moving it again', async () => {
    // given an accepted subscription whose 800 tokens the ledger booked already (its journal row)
    const m = await aMarket(gw.em(), gw.clock.now());
    const order = await aOneStepOrder(gw, m, { amount: '1000', stage: 'accepted' });
    const accepted = await gw.em().findOneOrFail(Order, { id: order.id });
    await gw
      .em()
      .transactional((em) =>
        gw.gateway.services.ledger.settle(em, { order: accepted, tokens: accepted.settlementTokens!, at: gw.clock.now(), transferHash: TRANSFER_HASH }),
      );
    // when ops settle it with its hash (its dealing date's NAV published)
    await aDealingDateNav(gw, order);
    const res = await gw.graphql(SETTLE, { id: order.id, h: TRANSFER_HASH }, { token: await gw.opsToken() });
    // then it is settled once, and the holding moved once
    expect(res.body.data.settleOneStepOrder).toEqual({ status: 'settled', transferHash: TRANSFER_HASH });
    expect(await completed(order.id)).toHaveLength(1);
    expect(await changed(order.id)).toHaveLength(1);
    expect(await gw.em().count(HoldingMovement, { orderId: order.id })).toBe(1);
    expect(Number(await balance(m))).toBe(800);
  });
});
