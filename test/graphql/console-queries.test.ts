import { DomainEvent } from '../../src/events/event.entity';
import { runInScope } from '../../src/common/request-scope';
import { DeliveryStatus, Webhook, WebhookDelivery } from '../../src/modules/webhook/webhook.entity';
import { aPendingOrder, moveOrder } from '../support/event.factories';
import { aMarket } from '../support/factories';
import { bearerOf } from '../support/auth.factories';
import { startTestGateway, type TestGateway } from '../support/gateway';

/** The two reads the ops console added: the webhook deliveries of one order's events, and the name its actions are recorded under. */
describe('GraphQL: what the ops console reads', () => {
  let gw: TestGateway;
  const NOW = new Date(Date.UTC(2030, 0, 10, 12));

  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());
  beforeEach(async () => {
    await gw.reset();
    gw.clock.set(NOW);
  });

  /** An order accepted, with its `order.accepted` event delivered to `webhook` (as the relay would record it). */
  async function anAcceptedOrderDelivered(m: Awaited<ReturnType<typeof aMarket>>, webhook: Webhook): Promise<{ orderId: string; eventId: string }> {
    const orderId = await aPendingOrder(gw.db.orm, m, NOW);
    await moveOrder(gw.db.orm, orderId, 'accepted', NOW);
    const em = gw.em();
    const event = await em.findOneOrFail(DomainEvent, { aggregateId: orderId, payload: { status: 'accepted' } });
    em.create(WebhookDelivery, {
      webhook: webhook.id,
      eventId: event.eventId,
      eventType: 'order.accepted',
      distributorId: m.distributor.id,
      body: '{}',
      status: DeliveryStatus.succeeded,
      attempts: 1,
      nextAttemptAt: NOW,
      createdAt: NOW,
    } as never);
    await em.flush();
    return { orderId, eventId: event.eventId };
  }

  const DELIVERIES = `query($orderId: String, $eventId: String) { webhookDeliveries(orderId: $orderId, eventId: $eventId) { eventId eventType webhookId } }`;

  it("webhookDeliveries(orderId) lists the deliveries of that order's events only", async () => {
    // given
    const m = await aMarket(gw.em(), NOW);
    const em = gw.em();
    const webhook = em.create(Webhook, {
      id: 'wh_console',
      distributor: m.distributor.id,
      eventType: 'order.accepted',
      endpointUrl: 'https://hooks.example/a',
      secretCipher: 'unused',
    } as never);
    await runInScope({ actor: 'test' }, () => em.flush());
    const a = await anAcceptedOrderDelivered(m, webhook);
    const b = await anAcceptedOrderDelivered(m, webhook);
    const token = await gw.opsToken();
    // when
    const ofA = await gw.graphql(DELIVERIES, { orderId: a.orderId }, { token });
    const ofBWithA = await gw.graphql(DELIVERIES, { orderId: b.orderId, eventId: a.eventId }, { token });
    const ofNone = await gw.graphql(DELIVERIES, { orderId: 'ord_unknown' }, { token });
    // then
    expect(ofA.body).toEqual({ data: { webhookDeliveries: [{ eventId: a.eventId, eventType: 'order.accepted', webhookId: 'wh_console' }] } });
    expect(ofBWithA.body.data.webhookDeliveries).toEqual([]);
    expect(ofNone.body.data.webhookDeliveries).toEqual([]);
  });

  it('webhookDeliveries(orderId) is for ops only', async () => {
    const m = await aMarket(gw.em(), NOW);
    const distributor = await gw.graphql(DELIVERIES, { orderId: 'ord_x' }, { headers: await bearerOf(gw, m.distributor) });
    const anonymous = await gw.graphql(DELIVERIES, { orderId: 'ord_x' });
    expect(distributor.body.errors?.[0]).toMatchObject({ message: 'ops access required', extensions: { code: 'FORBIDDEN' } });
    expect(anonymous.body.errors?.[0]).toMatchObject({ message: 'authentication required', extensions: { code: 'UNAUTHENTICATED' } });
  });

  it("opsTokenName answers the ops token's name, under which the console's actions are recorded, and only to ops", async () => {
    const m = await aMarket(gw.em(), NOW);
    const ops = await gw.graphql(`{ opsTokenName }`, {}, { token: await gw.opsToken() });
    const distributor = await gw.graphql(`{ opsTokenName }`, {}, { headers: await bearerOf(gw, m.distributor) });
    const anonymous = await gw.graphql(`{ opsTokenName }`);
    expect(ops.body).toEqual({ data: { opsTokenName: 'test-ops' } });
    expect(distributor.body.errors?.[0]?.extensions.code).toBe('FORBIDDEN');
    expect(anonymous.body.errors?.[0]?.extensions.code).toBe('UNAUTHENTICATED');
  });
});
