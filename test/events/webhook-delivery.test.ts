import { MikroORM } from '@mikro-orm/postgresql';
import { createGateway, type Gateway } from '../../src/app';
import { ManualClock } from '../../src/common/clock';
import { ormOptions } from '../../src/boot/orm';
import { RETRY_SCHEDULE_MS } from '../../src/modules/webhook/webhook-delivery';
import { aPendingOrder, aRolledBackTransition, moveOrder } from '../support/event.factories';
import { aMarket, anInvestor } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { makeCertificates, verifyDelivery, WebhookReceiver, type Received, type TestCertificates } from '../support/webhook-receiver';

const EVENT_TYPES = ['order.accepted', 'order.rejected', 'token.transfer_completed', 'token.transfer_failed'] as const;
const HOUR = 3600_000;

/**
 * A sentinel: a new order of `parties` moved to `status`, committed after whatever a negative
 * check says must not arrive; once its delivery arrives, those would have arrived before it.
 */
async function sentinel(
  gw: TestGateway,
  receiver: WebhookReceiver,
  parties: Parameters<typeof aPendingOrder>[1],
  status: 'accepted' | 'rejected' = 'rejected',
) {
  const id = await aPendingOrder(gw.db.orm, parties, gw.clock.now());
  await moveOrder(gw.db.orm, id, status, gw.clock.now());
  await receiver.waitFor((all) => all.some((r) => r.json.data.orderId === id));
  return { id, others: () => receiver.received.filter((r) => r.json.data.orderId !== id) };
}

describe('Webhook delivery from the event log', () => {
  let gw: TestGateway;
  let certs: TestCertificates;
  let receiver: WebhookReceiver;
  const events = () => ({ webhookAllowedHosts: ['127.0.0.1'], webhookCaFile: certs.caFile, pollMs: 50 });
  beforeAll(async () => {
    certs = await makeCertificates();
    receiver = await WebhookReceiver.start(certs);
    gw = await startTestGateway({ background: true, events: events() });
    receiver.clock = gw.clock;
  });
  afterAll(async () => {
    await gw.close();
    await receiver.close();
    certs.cleanup();
  });
  beforeEach(async () => {
    await gw.reset();
    receiver.reset();
  });

  async function registerAll(host: string, path: string): Promise<Record<string, { id: string; secret: string }>> {
    const out: Record<string, { id: string; secret: string }> = {};
    for (const event_type of EVENT_TYPES) {
      const res = await gw.api('POST', '/webhooks/register', { host, body: { event_type, endpoint_url: receiver.url(path) } });
      expect(res.status).toBe(200);
      out[event_type] = { id: res.body.data.id, secret: res.body.data.secret };
    }
    return out;
  }

  const gql = async (query: string, variables: Record<string, unknown> = {}) => {
    const res = await gw.graphql(query, variables, { token: await gw.opsToken() });
    expect(res.body.errors).toBeUndefined();
    return res.body.data;
  };

  /** Waits until no attempt is under way, so moving the clock cannot race a failure being recorded. */
  const quiet = async () => {
    for (let i = 0; i < 200; i++) {
      const d = await gql(`query { webhookDeliveries(status: in_flight) { id } }`);
      if (!d.webhookDeliveries.length) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('deliveries still in flight');
  };

  it('delivers each of the four events to the owning distributor only, signed (verified with standardwebhooks) and with the documented data', async () => {
    // given: both distributors registered for every event; orders of distributor A only
    const m = await aMarket(gw.em(), gw.clock.now());
    const hooksA = await registerAll(m.hostA, '/a');
    await registerAll(m.hostB, '/b');
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
    await registerAll(m.hostA, '/a');
    const order = await aPendingOrder(gw.db.orm, m, gw.clock.now());
    await aRolledBackTransition(gw.db.orm, order, 'accepted', gw.clock.now());
    await moveOrder(gw.db.orm, order, 'rejected', gw.clock.now());
    await receiver.waitFor((all) => all.length >= 1);
    expect((await sentinel(gw, receiver, m)).others().map((r) => r.json.event_type)).toEqual(['order.rejected']);
  });

  it('surface O orders announce the distributor and investor under their PT/US ids', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    await registerAll(m.hostA, '/a');
    const order = await aPendingOrder(gw.db.orm, m, gw.clock.now(), { surface: 'O' as never });
    await moveOrder(gw.db.orm, order, 'accepted', gw.clock.now());
    const [r] = await receiver.waitFor((all) => all.length >= 1);
    expect(r.json.data).toMatchObject({ distributorId: m.distributor.id.replace('DT', 'PT'), investorId: m.investor.id.replace('IN', 'US') });
  });

  it('a receiver that fails first and recovers later still gets every event, under the same webhook-id, on the retry schedule', async () => {
    // given: the receiver is down
    const m = await aMarket(gw.em(), gw.clock.now());
    const hooks = await registerAll(m.hostA, '/a');
    receiver.respond = () => ({ status: 500 });
    const orders = [await aPendingOrder(gw.db.orm, m, gw.clock.now()), await aPendingOrder(gw.db.orm, m, gw.clock.now())];
    for (const o of orders) await moveOrder(gw.db.orm, o, 'accepted', gw.clock.now());
    await receiver.waitFor((all) => all.length >= 2); // the immediate attempts, failed
    await quiet();
    expect(receiver.received).toHaveLength(2);
    // when: time passes past the second step (5 s ±20%), still failing; then past the third (5 min), recovered
    gw.clock.advance(7_000);
    await receiver.waitFor((all) => all.length >= 4);
    await quiet();
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
    await quiet();
    const after = await gql(
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
    const hooks = await registerAll(m.hostA, '/a');
    // 3xx
    receiver.respond = (r) =>
      r.path === '/a' && r.json.event_type === 'order.accepted' ? { status: 302, headers: { location: receiver.url('/elsewhere') } } : { status: 200 };
    const o1 = await aPendingOrder(gw.db.orm, m, gw.clock.now());
    await moveOrder(gw.db.orm, o1, 'accepted', gw.clock.now());
    await receiver.waitFor((all) => all.length >= 1);
    expect((await sentinel(gw, receiver, m)).others().map((r) => r.path)).toEqual(['/a']);
    await quiet();
    const d1 = await gql(`query($id: String) { webhookDeliveries(webhookId: $id) { status lastError attempts } }`, { id: hooks['order.accepted'].id });
    expect(d1.webhookDeliveries[0]).toEqual({ status: 'pending', lastError: 'redirect (302) not followed', attempts: 1 });

    // 429 with Retry-After: 600 s, longer than the 5 s step
    receiver.reset();
    receiver.respond = (r) => (r.json.event_type === 'order.rejected' ? { status: 429, headers: { 'retry-after': '600' } } : { status: 200 });
    const o2 = await aPendingOrder(gw.db.orm, m, gw.clock.now());
    await moveOrder(gw.db.orm, o2, 'rejected', gw.clock.now());
    await receiver.waitFor((all) => all.some((r) => r.json.event_type === 'order.rejected'));
    await quiet();
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
    await quiet();
    const hooksNow = await gql(`{ webhooks { id status disabledReason } }`);
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
    const hooks = await registerAll(m.hostA, '/a');
    receiver.respond = () => ({ status: 503 });
    const since = gw.clock.now().getTime();
    const order = await aPendingOrder(gw.db.orm, m, gw.clock.now());
    await moveOrder(gw.db.orm, order, 'accepted', gw.clock.now());
    for (let i = 1; i <= RETRY_SCHEDULE_MS.length; i++) {
      await receiver.waitFor((all) => all.length >= i);
      await quiet();
      if (i < RETRY_SCHEDULE_MS.length) gw.clock.advance(RETRY_SCHEDULE_MS[i] * 1.25);
    }
    gw.clock.advance(48 * HOUR);
    // a sentinel of another webhook (order.rejected), so the dead delivery stays alone on its own
    const late = await sentinel(gw, receiver, m);
    expect(late.others()).toHaveLength(10);
    const id = hooks['order.accepted'].id;
    const dead = await gql(`query($id: String) { webhookDeliveries(webhookId: $id) { eventId status attempts } }`, { id });
    expect(dead.webhookDeliveries).toEqual([{ eventId: receiver.received[0].headers['webhook-id'], status: 'dead', attempts: 10 }]);

    // recover
    receiver.respond = () => ({ status: 200 });
    const recovered = await gql(`mutation($id: String!, $since: EpochMs!) { recoverWebhookDeliveries(webhookId: $id, since: $since) { count } }`, {
      id,
      since,
    });
    expect(recovered.recoverWebhookDeliveries.count).toBe(1);
    await receiver.waitFor(() => late.others().length >= 11);
    expect(late.others()[10].headers['webhook-id']).toBe(late.others()[0].headers['webhook-id']);

    // redeliver one event, though it succeeded
    await quiet();
    const again = await gql(`mutation($e: String!) { redeliverWebhookEvent(eventId: $e) { count } }`, { e: dead.webhookDeliveries[0].eventId });
    expect(again.redeliverWebhookEvent.count).toBe(1);
    await receiver.waitFor(() => late.others().length >= 12);
    expect(late.others()[11].headers['webhook-id']).toBe(late.others()[0].headers['webhook-id']);
  });

  it('during a secret rotation deliveries carry two signatures, each verifiable with its secret; after the overlap only the new one', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    const hooks = await registerAll(m.hostA, '/a');
    const rotated = await gql(
      `mutation($id: String!) { rotateWebhookSecret(webhookId: $id, overlapSeconds: 3600) { secret webhook { id previousSecretUntil } } }`,
      { id: hooks['order.accepted'].id },
    );
    const newSecret = rotated.rotateWebhookSecret.secret;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(hooks['order.accepted'].secret);
    const o1 = await aPendingOrder(gw.db.orm, m, gw.clock.now());
    await moveOrder(gw.db.orm, o1, 'accepted', gw.clock.now());
    const [r1] = await receiver.waitFor((all) => all.length >= 1);
    await quiet();
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

  it('one slow endpoint does not hold up the others', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    const other = await anInvestor(gw.em(), m.other, { grants: [m.shareClass] });
    await registerAll(m.hostA, '/slow');
    await registerAll(m.hostB, '/fast');
    receiver.respond = (r) => (r.path === '/slow' ? 'hang' : { status: 200 });
    for (let i = 0; i < 6; i++) {
      const o = await aPendingOrder(gw.db.orm, m, gw.clock.now());
      await moveOrder(gw.db.orm, o, 'accepted', gw.clock.now());
    }
    const b = { distributor: m.other, investor: other, shareClass: m.shareClass };
    for (let i = 0; i < 3; i++) {
      const o = await aPendingOrder(gw.db.orm, b, gw.clock.now());
      await moveOrder(gw.db.orm, o, 'accepted', gw.clock.now());
    }
    await receiver.waitFor((all) => all.filter((r) => r.path === '/fast').length >= 3);
    expect(receiver.received.filter((r) => r.path === '/slow').length).toBeLessThanOrEqual(8); // at most 8 per endpoint at once
  });

  it('an attempt that gets no answer within the timeout fails (15 s by default; 300 ms here)', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    const quick = await createGateway({
      config: { env: 'test', bodyLimit: '100kb' },
      orm: gw.db.orm,
      clock: gw.clock,
      events: { ...events(), webhookTimeoutMs: 300 },
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

describe('Two gateway instances on one database', () => {
  let certs: TestCertificates;
  let receiver: WebhookReceiver;
  let gw: TestGateway;
  let second: Gateway;
  let secondOrm: MikroORM | null = null;
  beforeAll(async () => {
    certs = await makeCertificates();
    receiver = await WebhookReceiver.start(certs);
    const events = { webhookAllowedHosts: ['127.0.0.1'], webhookCaFile: certs.caFile, pollMs: 20 };
    gw = await startTestGateway({ background: true, events });
    // The second instance has its own connection pool where there is a server; the embedded database is one process's.
    const orm = gw.db.url ? (secondOrm = await MikroORM.init({ ...ormOptions(gw.clock), clientUrl: gw.db.url, pool: { min: 0, max: 10 } })) : gw.db.orm;
    second = await createGateway({ config: { env: 'test', bodyLimit: '100kb' }, orm, clock: new ManualClock(), events });
  });
  afterAll(async () => {
    await second.close();
    await secondOrm?.close(true);
    await gw.close();
    await receiver.close();
    certs.cleanup();
  });

  it('never deliver one attempt twice at the same time: each of 60 events arrives once, with no overlap per webhook-id', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    for (const event_type of EVENT_TYPES) await gw.api('POST', '/webhooks/register', { host: m.hostA, body: { event_type, endpoint_url: receiver.url('/a') } });
    const open = new Map<string, number>();
    let overlaps = 0;
    receiver.respond = (r) => {
      const id = String(r.headers['webhook-id']);
      open.set(id, (open.get(id) ?? 0) + 1);
      if (open.get(id)! > 1) overlaps++;
      setTimeout(() => open.set(id, open.get(id)! - 1), 30);
      return { status: 200, delayMs: 30 };
    };
    const orders: string[] = [];
    for (let i = 0; i < 30; i++) orders.push(await aPendingOrder(gw.db.orm, m, gw.clock.now()));
    await Promise.all(
      orders.map(async (o, i) => {
        await moveOrder(gw.db.orm, o, 'accepted', gw.clock.now());
        await moveOrder(gw.db.orm, o, i % 2 ? 'settled' : 'failed', gw.clock.now());
      }),
    );
    await receiver.waitFor((all) => all.length >= 60, 30_000);
    const got = (await sentinel(gw, receiver, m)).others(); // nothing more arrives
    expect(overlaps).toBe(0);
    expect(got).toHaveLength(60);
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(60);
  });
});
