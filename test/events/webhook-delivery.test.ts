import { Client } from 'pg';
import { createGateway } from '../../src/app';
import { DELIVERY_CHANNEL } from '../../src/events/relay';
import { rawRows } from '../../src/persistence/raw-query';
import { eventually } from '../support/chain';
import { serverUrl } from '../support/database';
import { aPendingOrder, aRolledBackTransition, moveOrder } from '../support/event.factories';
import { aMarket } from '../support/factories';
import type { TestGateway } from '../support/gateway';
import { aDeliveringGateway, noAttemptUnderWay, opsData, registerForEveryEvent, sentinel } from '../support/webhook-delivery';
import { verifyDelivery, type WebhookReceiver } from '../support/webhook-receiver';

const HOUR = 3600_000;

describe('Webhook delivery from the event log', () => {
  let gw: TestGateway;
  let receiver: WebhookReceiver;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ gw, receiver, close } = await aDeliveringGateway());
  });
  afterAll(() => close());
  beforeEach(async () => {
    await gw.reset();
    receiver.reset();
  });

  it('delivers each of the four events to the owning distributor only, signed (verified with standardwebhooks) and with the documented data', async () => {
    // given: both distributors registered for every event; orders of distributor A only
    const m = await aMarket(gw.em(), gw.clock.now());
    const hooksA = await registerForEveryEvent(gw, receiver, m.hostA, '/a');
    await registerForEveryEvent(gw, receiver, m.hostB, '/b');
    const now = () => gw.clock.now();
    const accepted = await aPendingOrder(gw.db.orm, m, now());
    const rejected = await aPendingOrder(gw.db.orm, m, now());
    const failed = await aPendingOrder(gw.db.orm, m, now());
    // when
    await moveOrder(gw.db.orm, accepted, 'accepted', now(), { settlementNav: '1.25' });
    await moveOrder(gw.db.orm, accepted, 'settled', now(), { transferHash: '0xabc', settlementTokens: '800' });
    await moveOrder(gw.db.orm, rejected, 'rejected', now(), {}, 'missed cut-off');
    await moveOrder(gw.db.orm, failed, 'accepted', now());
    await moveOrder(gw.db.orm, failed, 'failed', now(), { failureReason: 'out of gas', transferHash: '0xdead' });
    // then
    await receiver.waitFor((all) => all.length >= 5);
    const got = (await sentinel(gw, receiver, m)).others(); // nothing more arrives
    expect(got).toHaveLength(5);
    expect(got.every((r) => r.path === '/a')).toBe(true);
    const byType = (t: string) => got.filter((r) => r.json.event_type === t);
    expect(byType('order.accepted')).toHaveLength(2);
    for (const r of got) {
      const payload = verifyDelivery(hooksA[r.json.event_type].secret, r);
      expect(r.headers['webhook-id']).toBe(payload.data.eventId);
      expect(r.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
      expect(payload.data).toMatchObject({
        distributorId: m.distributor.id,
        investorId: m.investor.id,
        shareClassId: m.shareClass.id,
        flow: 'one_step',
        type: 'subscribe',
        amount: '1000',
        currency: 'USD',
        test: false,
      });
    }
    const completed = byType('token.transfer_completed')[0].json.data;
    expect(completed).toMatchObject({
      orderId: accepted,
      status: 'settled',
      previousStatus: 'accepted',
      sequence: 3,
      transferHash: '0xabc',
      settlementTokens: '800',
      reason: null,
    });
    expect(byType('order.rejected')[0].json.data).toMatchObject({ orderId: rejected, status: 'rejected', sequence: 2, reason: 'missed cut-off' });
    expect(byType('token.transfer_failed')[0].json.data).toMatchObject({ orderId: failed, status: 'failed', reason: 'out of gas', transferHash: '0xdead' });
    const acceptedData = byType('order.accepted').find((r) => r.json.data.orderId === accepted)!.json.data;
    expect(acceptedData).toMatchObject({ status: 'accepted', previousStatus: 'pending', sequence: 2, settlementNav: '1.25' });
    expect(typeof acceptedData.occurredAt).toBe('number');
  });

  it('announces nothing that did not commit', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    await registerForEveryEvent(gw, receiver, m.hostA, '/a');
    const order = await aPendingOrder(gw.db.orm, m, gw.clock.now());
    await aRolledBackTransition(gw.db.orm, order, 'accepted', gw.clock.now());
    await moveOrder(gw.db.orm, order, 'rejected', gw.clock.now());
    await receiver.waitFor((all) => all.length >= 1);
    expect((await sentinel(gw, receiver, m)).others().map((r) => r.json.event_type)).toEqual(['order.rejected']);
  });

  (serverUrl() ? it : it.skip)(
    "tells every instance's delivery worker of new deliveries at commit (NOTIFY on gateway_delivery), and of nothing when a pass creates none",
    async () => {
      // given a connection of its own listening where the delivery workers of every instance listen
      const listener = new Client({ connectionString: gw.db.url! });
      await listener.connect();
      let heard = 0;
      listener.on('notification', (n) => (heard += n.channel === DELIVERY_CHANNEL ? 1 : 0));
      await listener.query(`listen ${DELIVERY_CHANNEL}`);
      try {
        const m = await aMarket(gw.em(), gw.clock.now());
        const relayed = (order: string) =>
          eventually('the event relayed', async () => {
            const rows = await rawRows(gw.em(), 'select 1 from event where aggregate_id = ? and relayed_at is not null', [order]);
            return rows.length > 0;
          });
        // when an event is relayed that no webhook takes, then nobody is told
        const unheard = await aPendingOrder(gw.db.orm, m, gw.clock.now());
        await moveOrder(gw.db.orm, unheard, 'accepted', gw.clock.now());
        await relayed(unheard);
        // when one is relayed that a webhook takes, then the workers are told once, and it is delivered
        await registerForEveryEvent(gw, receiver, m.hostA, '/a');
        const told = await aPendingOrder(gw.db.orm, m, gw.clock.now());
        await moveOrder(gw.db.orm, told, 'accepted', gw.clock.now());
        await receiver.waitFor((all) => all.some((r) => r.json.data.orderId === told));
        await eventually('the notification', async () => heard > 0);
        expect(heard).toBe(1);
      } finally {
        await listener.end();
      }
    },
  );

  it('surface O orders announce the distributor and investor under their PT/US ids', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    await registerForEveryEvent(gw, receiver, m.hostA, '/a');
    const order = await aPendingOrder(gw.db.orm, m, gw.clock.now(), { surface: 'O' as never });
    await moveOrder(gw.db.orm, order, 'accepted', gw.clock.now());
    const [r] = await receiver.waitFor((all) => all.length >= 1);
    expect(r.json.data).toMatchObject({ distributorId: m.distributor.id.replace('DT', 'PT'), investorId: m.investor.id.replace('IN', 'US') });
  });

  it('during a secret rotation deliveries carry two signatures, each verifiable with its secret; after the overlap only the new one', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    const hooks = await registerForEveryEvent(gw, receiver, m.hostA, '/a');
    const rotated = await opsData(
      gw,
      `mutation($id: String!) { rotateWebhookSecret(webhookId: $id, overlapSeconds: 3600) { secret webhook { id previousSecretUntil } } }`,
      { id: hooks['order.accepted'].id },
    );
    const newSecret = rotated.rotateWebhookSecret.secret;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(hooks['order.accepted'].secret);
    const o1 = await aPendingOrder(gw.db.orm, m, gw.clock.now());
    await moveOrder(gw.db.orm, o1, 'accepted', gw.clock.now());
    const [r1] = await receiver.waitFor((all) => all.length >= 1);
    await noAttemptUnderWay(gw);
    expect(String(r1.headers['webhook-signature']).split(' ')).toHaveLength(2);
    verifyDelivery(newSecret, r1);
    verifyDelivery(hooks['order.accepted'].secret, r1);
    gw.clock.advance(2 * HOUR);
    const o2 = await aPendingOrder(gw.db.orm, m, gw.clock.now());
    await moveOrder(gw.db.orm, o2, 'accepted', gw.clock.now());
    const [, r2] = await receiver.waitFor((all) => all.length >= 2);
    expect(String(r2.headers['webhook-signature']).split(' ')).toHaveLength(1);
    verifyDelivery(newSecret, r2);
    expect(() => verifyDelivery(hooks['order.accepted'].secret, r2)).toThrow();
  });

  it('a distributor cannot rotate secrets, list deliveries or redeliver: those are ops operations', async () => {
    const res = await gw.graphql(`{ webhookDeliveries { id } }`);
    expect(res.body.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('refuses at delivery an endpoint whose name now resolves to a private address (SSRF, DNS rebinding)', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    // Registered while allowed; then a gateway whose allowlist does not cover it (a stand-in for a
    // name re-pointed at a private address after registration) resolves it again and refuses.
    const strict = await createGateway({
      config: { env: 'test', bodyLimit: '100kb' },
      orm: gw.db.orm,
      clock: gw.clock,
      events: { pollMs: 50, webhookAllowedHosts: [] },
    });
    try {
      const ok = await gw.api('POST', '/webhooks/register', { host: m.hostA, body: { event_type: 'order.accepted', endpoint_url: receiver.url('/a') } });
      // the gateway under test keeps delivering it (allowed); the strict one refuses at the test endpoint
      const strictPort = await strict.listen(0, '127.0.0.1');
      const { httpRequest } = await import('../support/http');
      const res = await httpRequest(strictPort, 'POST', '/api/v1/webhooks/test', {
        host: m.hostA,
        body: { event_type: 'order.accepted', webhook_id: ok.body.data.id },
      });
      expect(res.body.data.success).toBe(false);
      // a generic reason: the gateway's network is not described to the caller
      expect(res.body.data.message).toMatch(/not delivered: endpoint address is not allowed$/);
      expect(res.body.data.message).not.toMatch(/127\.0\.0\.1/);
      expect(receiver.received).toHaveLength(0);
    } finally {
      await strict.close();
    }
  });
});
