import { aPendingOrder, moveOrder } from '../support/event.factories';
import { aMarket, anInvestor, aShareClass } from '../support/factories';
import { OrderFlow } from '../../src/modules/order/order.entity';
import type { Distributor } from '../../src/modules/distributor/distributor.entity';
import { aTokenPair } from '../support/auth.factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { ORDER_UPDATES, subscribe } from '../support/subscriptions';
import { makeCertificates, WebhookReceiver, type TestCertificates } from '../support/webhook-receiver';

/** A distributor's surface-O access token: its principal on GraphQL too. */
const tokenOf = async (gw: TestGateway, distributor: Distributor) => (await aTokenPair(gw, distributor)).accessToken;

describe('GraphQL subscriptions over graphql-ws', () => {
  let gw: TestGateway;
  let certs: TestCertificates;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    certs = await makeCertificates();
    receiver = await WebhookReceiver.start(certs);
    gw = await startTestGateway({ background: true, events: { pollMs: 50, webhookAllowedHosts: ['127.0.0.1'], webhookCaFile: certs.caFile } });
  });
  afterAll(async () => {
    await gw.close();
    await receiver.close();
    certs.cleanup();
  });
  beforeEach(() => gw.reset());

  it('a subscription client sees each order transition, in order, with its per-order sequence', async () => {
    // given
    const m = await aMarket(gw.em(), gw.clock.now());
    const sub = await subscribe(gw.port, ORDER_UPDATES, {}, await gw.opsToken());
    // when
    const order = await aPendingOrder(gw.db.orm, m, gw.clock.now());
    await moveOrder(gw.db.orm, order, 'accepted', gw.clock.now());
    await moveOrder(gw.db.orm, order, 'settled', gw.clock.now(), { transferHash: '0x1' });
    // then
    const got = await sub.waitFor(3);
    await sub.close();
    expect(got.map((g) => [g.orderUpdated.status, g.orderUpdated.previousStatus, g.orderUpdated.sequence, g.orderUpdated.webhookEvent])).toEqual([
      ['pending', null, 1, null],
      ['accepted', 'pending', 2, 'order.accepted'],
      ['settled', 'accepted', 3, 'token.transfer_completed'],
    ]);
    expect(got[2].orderUpdated).toMatchObject({ orderId: order, flow: 'one_step', distributorId: m.distributor.id, shareClassId: m.shareClass.id });
    // each event is resolved with a fresh EntityManager: the order as it is at that event's resolution
    expect(got[2].orderUpdated.order).toEqual({ id: order, status: 'settled', eventSeq: 3 });
  });

  it('many transitions of many orders arrive in log order per order', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    const sub = await subscribe(gw.port, ORDER_UPDATES, {}, await gw.opsToken());
    const orders = await Promise.all([1, 2, 3, 4].map(() => aPendingOrder(gw.db.orm, m, gw.clock.now())));
    await Promise.all(
      orders.map(async (o) => {
        await moveOrder(gw.db.orm, o, 'accepted', gw.clock.now());
        await moveOrder(gw.db.orm, o, 'failed', gw.clock.now());
      }),
    );
    const got = await sub.waitFor(12);
    await sub.close();
    for (const o of orders) expect(got.filter((g) => g.orderUpdated.orderId === o).map((g) => g.orderUpdated.sequence)).toEqual([1, 2, 3]);
  });

  it('filters by distributor, share class, status and flow', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    const token = await gw.opsToken();
    const byStatus = await subscribe(gw.port, ORDER_UPDATES, { status: 'accepted' }, token);
    const byOther = await subscribe(gw.port, ORDER_UPDATES, { distributorId: m.other.id }, token);
    const byShareClass = await subscribe(gw.port, ORDER_UPDATES, { shareClassId: m.shareClass.id, flow: 'one_step' }, token);
    const byTwoStep = await subscribe(gw.port, ORDER_UPDATES, { flow: 'two_step' }, token);
    const o = await aPendingOrder(gw.db.orm, m, gw.clock.now());
    await moveOrder(gw.db.orm, o, 'accepted', gw.clock.now());
    // then, sentinels each filter lets through, committed after: once one arrives, whatever that
    // subscriber was going to receive of `o` has arrived before it (events are relayed in log order)
    const acceptedLater = await aPendingOrder(gw.db.orm, m, gw.clock.now());
    await moveOrder(gw.db.orm, acceptedLater, 'accepted', gw.clock.now());
    const ofOther = await aPendingOrder(
      gw.db.orm,
      { ...m, distributor: m.other, investor: await anInvestor(gw.em(), m.other, { grants: [m.shareClass] }) },
      gw.clock.now(),
    );
    const twoStep = await aPendingOrder(gw.db.orm, m, gw.clock.now(), { flow: OrderFlow.two_step });
    await byShareClass.waitFor(2);
    expect((await byStatus.waitFor(2)).map((g) => [g.orderUpdated.orderId, g.orderUpdated.status])).toEqual([
      [o, 'accepted'],
      [acceptedLater, 'accepted'],
    ]);
    expect((await byOther.waitFor(1)).map((g) => g.orderUpdated.orderId)).toEqual([ofOther]);
    expect((await byTwoStep.waitFor(1)).map((g) => [g.orderUpdated.orderId, g.orderUpdated.status])).toEqual([[twoStep, 'created']]);
    expect(byStatus.messages).toHaveLength(2);
    expect(byOther.messages).toHaveLength(1);
    for (const s of [byStatus, byOther, byShareClass, byTwoStep]) await s.close();
  });

  it('a distributor principal sees only its own orders; without authentication the connection is refused', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    const [tokenA, tokenB] = [await tokenOf(gw, m.distributor), await tokenOf(gw, m.other)];
    const a = await subscribe(gw.port, ORDER_UPDATES, {}, tokenA);
    const b = await subscribe(gw.port, ORDER_UPDATES, {}, tokenB);
    const bAskingForA = await subscribe(gw.port, ORDER_UPDATES, { distributorId: m.distributor.id }, tokenB);
    const o = await aPendingOrder(gw.db.orm, m, gw.clock.now());
    await moveOrder(gw.db.orm, o, 'rejected', gw.clock.now());
    await a.waitFor(2);
    // a sentinel of B's own, committed after: when it reaches B, A's order would have before it
    const ofB = await aPendingOrder(
      gw.db.orm,
      { ...m, distributor: m.other, investor: await anInvestor(gw.em(), m.other, { grants: [m.shareClass] }) },
      gw.clock.now(),
    );
    expect((await b.waitFor(1)).map((g) => g.orderUpdated.orderId)).toEqual([ofB]);
    // (B asking for A's orders can receive nothing at all, so B's sentinel, relayed by the same server, stands for it)
    expect(bAskingForA.messages).toEqual([]);
    for (const s of [a, b, bAskingForA]) await s.close();

    // No principal, no socket: graphql-ws closes the connection 4403 Forbidden at connection_init.
    await expect(subscribe(gw.port, ORDER_UPDATES, {})).rejects.toThrow('closed: 4403');
    await expect(subscribe(gw.port, ORDER_UPDATES, {}, 'not-a-token')).rejects.toThrow('closed: 4403');
  });

  it('an event reaches every subscriber once, whether its answer is resolved for one subscriber or shared by many of one principal', async () => {
    // given: two ops subscribers of one token and the order's distributor, with the same document
    const m = await aMarket(gw.em(), gw.clock.now());
    const token = await gw.opsToken();
    const [ops1, ops2, own] = [
      await subscribe(gw.port, ORDER_UPDATES, {}, token),
      await subscribe(gw.port, ORDER_UPDATES, {}, token),
      await subscribe(gw.port, ORDER_UPDATES, {}, await tokenOf(gw, m.distributor)),
    ];
    // when
    const o = await aPendingOrder(gw.db.orm, m, gw.clock.now());
    await moveOrder(gw.db.orm, o, 'accepted', gw.clock.now());
    // then: each gets both transitions, once, whole, with the order as it is when the event is resolved
    const [a, b, c] = await Promise.all([ops1.waitFor(2), ops2.waitFor(2), own.waitFor(2)]);
    for (const got of [a, b, c])
      expect(got.map((g) => [g.orderUpdated.orderId, g.orderUpdated.status, g.orderUpdated.sequence])).toEqual([
        [o, 'pending', 1],
        [o, 'accepted', 2],
      ]);
    expect(b).toEqual(a);
    // (the distributor's answer is its own, resolved apart: its `order` may be read at another moment)
    const withoutOrder = ({ orderUpdated: { order: _order, ...event } }: { orderUpdated: Record<string, unknown> }) => event;
    expect(c.map(withoutOrder)).toEqual(a.map(withoutOrder));
    // and a subscriber that leaves takes nothing from the others
    await ops1.close();
    await moveOrder(gw.db.orm, o, 'settled', gw.clock.now(), { transferHash: '0x2' });
    const [later, laterOwn] = await Promise.all([ops2.waitFor(3), own.waitFor(3)]);
    expect(later[2].orderUpdated).toMatchObject({ status: 'settled', sequence: 3, order: { id: o, status: 'settled', eventSeq: 3 } });
    expect(laterOwn[2]).toEqual(later[2]);
    // a sentinel transition, committed after: each gets it fourth, nothing twice before it
    const sentinel = await aPendingOrder(gw.db.orm, m, gw.clock.now());
    for (const sub of [ops2, own]) {
      expect((await sub.waitFor(4)).map((g) => g.orderUpdated.orderId)).toEqual([o, o, o, sentinel]);
      await sub.close();
    }
  });

  it('NAV publications reach ops and the distributors granted the share class', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    const lonely = await aShareClass(gw.em());
    const tokenA = await tokenOf(gw, m.distributor);
    const query = `subscription { navPublished { shareClassId entryId close publishedAt } }`;
    const ops = await subscribe(gw.port, query, {}, await gw.opsToken());
    const a = await subscribe(gw.port, query, {}, tokenA);
    for (const sc of [m.shareClass.id, lonely.id]) {
      const res = await gw.graphql(
        `mutation($sc: String!) { publishNav(input: { shareClassId: $sc, close: "1.255" }) { entryId } }`,
        { sc },
        { token: await gw.opsToken() },
      );
      expect(res.body.errors).toBeUndefined();
      gw.clock.advance(1000);
    }
    // a sentinel publication A may see, after the one it may not
    const sentinel = await gw.graphql(
      `mutation($sc: String!) { publishNav(input: { shareClassId: $sc, close: "1.26" }) { entryId } }`,
      { sc: m.shareClass.id },
      { token: await gw.opsToken() },
    );
    expect(sentinel.body.errors).toBeUndefined();
    expect((await ops.waitFor(3)).map((x) => x.navPublished.shareClassId)).toEqual([m.shareClass.id, lonely.id, m.shareClass.id]);
    expect((await a.waitFor(2)).map((x) => [x.navPublished.shareClassId, x.navPublished.close])).toEqual([
      [m.shareClass.id, '1.255'],
      [m.shareClass.id, '1.26'],
    ]);
    await ops.close();
    await a.close();
  });

  describe('webhook delivery outcomes', () => {
    it('ops see the outcome of each attempt; a distributor only those of its own webhooks', async () => {
      const m = await aMarket(gw.em(), gw.clock.now());
      const port = gw.port;
      const reg = await gw.api('POST', '/webhooks/register', { host: m.hostA, body: { event_type: 'order.accepted', endpoint_url: receiver.url() } });
      const [tokenA, tokenB] = [await tokenOf(gw, m.distributor), await tokenOf(gw, m.other)];
      const query = `subscription { webhookDeliveryOutcome { webhookId eventId eventType attempt statusCode success status test } }`;
      const ops = await subscribe(port, query, {}, await gw.opsToken());
      const a = await subscribe(port, query, {}, tokenA);
      const b = await subscribe(port, query, {}, tokenB);
      receiver.respond = () => ({ status: 200 });
      const o = await aPendingOrder(gw.db.orm, m, gw.clock.now());
      await moveOrder(gw.db.orm, o, 'accepted', gw.clock.now());
      const [outcome] = await ops.waitFor(1);
      expect(outcome.webhookDeliveryOutcome).toMatchObject({
        webhookId: reg.body.data.id,
        eventType: 'order.accepted',
        attempt: 1,
        statusCode: 200,
        success: true,
        status: 'succeeded',
        test: false,
      });
      await a.waitFor(1);
      // a sentinel: an outcome of B's own webhook, after A's; B gets it first and only it
      const regB = await gw.api('POST', '/webhooks/register', { host: m.hostB, body: { event_type: 'order.accepted', endpoint_url: receiver.url('/b') } });
      const ofB = await aPendingOrder(
        gw.db.orm,
        { ...m, distributor: m.other, investor: await anInvestor(gw.em(), m.other, { grants: [m.shareClass] }) },
        gw.clock.now(),
      );
      await moveOrder(gw.db.orm, ofB, 'accepted', gw.clock.now());
      expect((await b.waitFor(1)).map((x) => x.webhookDeliveryOutcome.webhookId)).toEqual([regB.body.data.id]);
      for (const s of [ops, a, b]) await s.close();
    });
  });
});
