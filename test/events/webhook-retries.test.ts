import { createGateway } from '../../src/app';
import { RETRY_SCHEDULE_MS } from '../../src/modules/webhook/webhook-delivery';
import { aPendingOrder, moveOrder } from '../support/event.factories';
import { aMarket } from '../support/factories';
import type { TestGateway } from '../support/gateway';
import { aDeliveringGateway, deliveryEvents, noAttemptUnderWay, opsData, registerForEveryEvent, sentinel } from '../support/webhook-delivery';
import { verifyDelivery, type Received, type TestCertificates, type WebhookReceiver } from '../support/webhook-receiver';

const HOUR = 3600_000;

describe('Webhook delivery: failures, retries and recovery', () => {
  let gw: TestGateway;
  let receiver: WebhookReceiver;
  let certs: TestCertificates;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ gw, certs, receiver, close } = await aDeliveringGateway());
  });
  afterAll(() => close());
  beforeEach(async () => {
    await gw.reset();
    receiver.reset();
  });

  it('a receiver that fails first and recovers later still gets every event, under the same webhook-id, on the retry schedule', async () => {
    // given: the receiver is down
    const m = await aMarket(gw.em(), gw.clock.now());
    const hooks = await registerForEveryEvent(gw, receiver, m.hostA, '/a');
    receiver.respond = () => ({ status: 500 });
    const orders = [await aPendingOrder(gw.db.orm, m, gw.clock.now()), await aPendingOrder(gw.db.orm, m, gw.clock.now())];
    for (const o of orders) await moveOrder(gw.db.orm, o, 'accepted', gw.clock.now());
    await receiver.waitFor((all) => all.length >= 2); // the immediate attempts, failed
    await noAttemptUnderWay(gw);
    expect(receiver.received).toHaveLength(2);
    // when: time passes past the second step (5 s ±20%), still failing; then past the third (5 min), recovered
    gw.clock.advance(7_000);
    await receiver.waitFor((all) => all.length >= 4);
    await noAttemptUnderWay(gw);
    receiver.respond = () => ({ status: 204 });
    gw.clock.advance(7 * 60_000);
    await receiver.waitFor((all) => all.length >= 6);
    // then: each event arrived three times with one id, verifiable each time
    const ids = new Map<string, Received[]>();
    for (const r of receiver.received) ids.set(String(r.headers['webhook-id']), [...(ids.get(String(r.headers['webhook-id'])) ?? []), r]);
    expect([...ids.values()].map((rs) => rs.length)).toEqual([3, 3]);
    for (const r of receiver.received) verifyDelivery(hooks['order.accepted'].secret, r);
    // the timestamps are fresh per attempt
    const first = [...ids.values()][0].map((r) => Number(r.headers['webhook-timestamp']));
    expect(first[1] - first[0]).toBeGreaterThanOrEqual(4);
    expect(first[2] - first[1]).toBeGreaterThanOrEqual(240);
    // and ops see the attempts with their outcomes
    await noAttemptUnderWay(gw);
    const after = await opsData(
      gw,
      `query($id: String) { webhookDeliveries(webhookId: $id) { eventId status attempts tries: deliveryAttempts { number statusCode success latencyMs error } } }`,
      { id: hooks['order.accepted'].id },
    );
    expect(after.webhookDeliveries).toHaveLength(2);
    for (const d of after.webhookDeliveries) {
      expect(d.status).toBe('succeeded');
      expect(d.tries.map((t: any) => [t.number, t.statusCode, t.success])).toEqual([
        [1, 500, false],
        [2, 500, false],
        [3, 204, true],
      ]);
      expect(d.tries[0].error).toBe('HTTP 500');
    }
  });

  it('3xx is a failure (the redirect is not followed), 429 with Retry-After waits as long as asked, and 410 disables the endpoint', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    const hooks = await registerForEveryEvent(gw, receiver, m.hostA, '/a');
    // 3xx
    receiver.respond = (r) =>
      r.path === '/a' && r.json.event_type === 'order.accepted' ? { status: 302, headers: { location: receiver.url('/elsewhere') } } : { status: 200 };
    const o1 = await aPendingOrder(gw.db.orm, m, gw.clock.now());
    await moveOrder(gw.db.orm, o1, 'accepted', gw.clock.now());
    await receiver.waitFor((all) => all.length >= 1);
    expect((await sentinel(gw, receiver, m)).others().map((r) => r.path)).toEqual(['/a']);
    await noAttemptUnderWay(gw);
    const d1 = await opsData(gw, `query($id: String) { webhookDeliveries(webhookId: $id) { status lastError attempts } }`, { id: hooks['order.accepted'].id });
    expect(d1.webhookDeliveries[0]).toEqual({ status: 'pending', lastError: 'redirect (302) not followed', attempts: 1 });

    // 429 with Retry-After: 600 s, longer than the 5 s step
    receiver.reset();
    receiver.respond = (r) => (r.json.event_type === 'order.rejected' ? { status: 429, headers: { 'retry-after': '600' } } : { status: 200 });
    const o2 = await aPendingOrder(gw.db.orm, m, gw.clock.now());
    await moveOrder(gw.db.orm, o2, 'rejected', gw.clock.now());
    await receiver.waitFor((all) => all.some((r) => r.json.event_type === 'order.rejected'));
    await noAttemptUnderWay(gw);
    gw.clock.advance(60_000);
    await sentinel(gw, receiver, m, 'accepted');
    expect(receiver.received.filter((r) => r.json.event_type === 'order.rejected')).toHaveLength(1);
    gw.clock.advance(600_000);
    await receiver.waitFor((all) => all.filter((r) => r.json.event_type === 'order.rejected').length >= 2);

    // 410 disables the webhook; later events are not sent to it
    receiver.reset();
    receiver.respond = (r) => (r.json.event_type === 'token.transfer_failed' ? { status: 410 } : { status: 200 });
    const o3 = await aPendingOrder(gw.db.orm, m, gw.clock.now());
    await moveOrder(gw.db.orm, o3, 'accepted', gw.clock.now());
    await moveOrder(gw.db.orm, o3, 'failed', gw.clock.now(), { failureReason: 'revert' });
    await receiver.waitFor((all) => all.some((r) => r.json.event_type === 'token.transfer_failed'));
    await noAttemptUnderWay(gw);
    const hooksNow = await opsData(gw, `{ webhooks { id status disabledReason } }`);
    expect(hooksNow.webhooks.find((h: any) => h.id === hooks['token.transfer_failed'].id)).toEqual({
      id: hooks['token.transfer_failed'].id,
      status: 'disabled',
      disabledReason: 'endpoint answered 410 Gone',
    });
    const o4 = await aPendingOrder(gw.db.orm, m, gw.clock.now());
    await moveOrder(gw.db.orm, o4, 'accepted', gw.clock.now());
    await moveOrder(gw.db.orm, o4, 'failed', gw.clock.now());
    gw.clock.advance(HOUR);
    await receiver.waitFor((all) => all.filter((r) => r.json.data.orderId === o4).length >= 1);
    await sentinel(gw, receiver, m, 'accepted');
    expect(receiver.received.filter((r) => r.json.event_type === 'token.transfer_failed')).toHaveLength(1);
  });

  it('after the whole schedule the delivery is dead; ops recover every failed delivery of the endpoint since a time, and redeliver one event', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    const hooks = await registerForEveryEvent(gw, receiver, m.hostA, '/a');
    receiver.respond = () => ({ status: 503 });
    const since = gw.clock.now().getTime();
    const order = await aPendingOrder(gw.db.orm, m, gw.clock.now());
    await moveOrder(gw.db.orm, order, 'accepted', gw.clock.now());
    for (let i = 1; i <= RETRY_SCHEDULE_MS.length; i++) {
      await receiver.waitFor((all) => all.length >= i);
      await noAttemptUnderWay(gw);
      if (i < RETRY_SCHEDULE_MS.length) gw.clock.advance(RETRY_SCHEDULE_MS[i] * 1.25);
    }
    gw.clock.advance(48 * HOUR);
    // a sentinel of another webhook (order.rejected), so the dead delivery stays alone on its own
    const late = await sentinel(gw, receiver, m);
    expect(late.others()).toHaveLength(10);
    const id = hooks['order.accepted'].id;
    const dead = await opsData(gw, `query($id: String) { webhookDeliveries(webhookId: $id) { eventId status attempts } }`, { id });
    expect(dead.webhookDeliveries).toEqual([{ eventId: receiver.received[0].headers['webhook-id'], status: 'dead', attempts: 10 }]);

    // recover
    receiver.respond = () => ({ status: 200 });
    const recovered = await opsData(gw, `mutation($id: String!, $since: EpochMs!) { recoverWebhookDeliveries(webhookId: $id, since: $since) { count } }`, {
      id,
      since,
    });
    expect(recovered.recoverWebhookDeliveries.count).toBe(1);
    await receiver.waitFor(() => late.others().length >= 11);
    expect(late.others()[10].headers['webhook-id']).toBe(late.others()[0].headers['webhook-id']);

    // redeliver one event, though it succeeded
    await noAttemptUnderWay(gw);
    const again = await opsData(gw, `mutation($e: String!) { redeliverWebhookEvent(eventId: $e) { count } }`, { e: dead.webhookDeliveries[0].eventId });
    expect(again.redeliverWebhookEvent.count).toBe(1);
    await receiver.waitFor(() => late.others().length >= 12);
    expect(late.others()[11].headers['webhook-id']).toBe(late.others()[0].headers['webhook-id']);
  });

  it('an attempt that gets no answer within the timeout fails (15 s by default; 300 ms here)', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    const quick = await createGateway({
      config: { env: 'test', bodyLimit: '100kb' },
      orm: gw.db.orm,
      clock: gw.clock,
      events: { ...deliveryEvents(certs), webhookTimeoutMs: 300 },
    });
    try {
      const port = await quick.listen(0, '127.0.0.1');
      const reg = await gw.api('POST', '/webhooks/register', { host: m.hostA, body: { event_type: 'order.rejected', endpoint_url: receiver.url('/hang') } });
      receiver.respond = () => 'hang';
      const { httpRequest } = await import('../support/http');
      const res = await httpRequest(port, 'POST', '/api/v1/webhooks/test', {
        host: m.hostA,
        body: { event_type: 'order.rejected', webhook_id: reg.body.data.id },
      });
      expect(res.body.data).toEqual({ success: false, message: expect.stringMatching(/not delivered: endpoint did not answer in time$/) });
    } finally {
      await quick.close();
    }
  });
});
