import { orderWebhookData } from '../../src/modules/webhook/webhook-payload';
import { DomainEvent } from '../../src/events/event.entity';
import { Order } from '../../src/modules/order/order.entity';
import { bearerOf } from '../support/auth.factories';
import { aHolding, aMarket, anInvestor } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aOneStepOrder } from '../support/one-step.factories';

/** GET /api/v1/events and the `events` query: a receiver catches up on what it missed. */
describe('Event feed', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ background: true, events: { pollMs: 20 } });
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  /** Waits (no timing assertion) until the relay has announced every event written so far. */
  async function relayed(): Promise<void> {
    for (let i = 0; i < 500; i++) {
      if ((await gw.em().count(DomainEvent, { relayedAt: null })) === 0) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('the relay did not announce the events');
  }

  async function world() {
    const m = await aMarket(gw.em(), gw.clock.now());
    await aHolding(gw.em(), m.investor, m.shareClass, '100');
    const investorB = await anInvestor(gw.em(), m.other, { grants: [m.shareClass] });
    const accepted = await aOneStepOrder(gw, m, { stage: 'accepted' });
    const settled = await aOneStepOrder(gw, m, { stage: 'settled' });
    const rejected = await aOneStepOrder(gw, m, { type: 'redeem', tokenCount: '5', stage: 'rejected' });
    await aOneStepOrder(gw, m, { stage: 'pending' }); // no webhook event
    const ofB = await aOneStepOrder(gw, { distributor: m.other, investor: investorB, shareClass: m.shareClass }, { stage: 'accepted' });
    await relayed();
    return { ...m, accepted, settled, rejected, ofB };
  }

  it("returns only the caller's webhook events, in log order, each with the data its webhook carries", async () => {
    // given
    const w = await world();
    // when
    const res = await gw.api('GET', '/events', { host: w.hostA });
    // then
    expect(res.status).toBe(200);
    const items = res.body.data.items as any[];
    expect(items.map((i) => [i.data.orderId, i.event_type])).toEqual([
      [w.accepted.id, 'order.accepted'],
      [w.settled.id, 'order.accepted'],
      [w.settled.id, 'token.transfer_completed'],
      [w.rejected.id, 'order.rejected'],
    ]);
    expect(res.body.data.hasMore).toBe(false);
    // the same data a webhook of that event carries (one builder: webhook-payload.ts)
    const rows = await gw.em().find(DomainEvent, { eventId: { $in: items.map((i) => i.eventId) } });
    for (const item of items) {
      const row = rows.find((r) => r.eventId === item.eventId)!;
      const order = await gw.em().findOne(Order, row.aggregateId);
      expect(item.data).toEqual(orderWebhookData(row, order));
      expect(item.occurredAt).toBe(row.occurredAt.getTime());
    }
    expect(items.some((i) => i.data.orderId === w.ofB.id)).toBe(false);
    // the other distributor sees its own only
    const b = await gw.api('GET', '/events', { host: w.hostB });
    expect(b.body.data.items.map((i: any) => i.data.orderId)).toEqual([w.ofB.id]);
  });

  it('pages with after and limit; nextCursor resumes where the last page ended, and stays put when nothing is new', async () => {
    const w = await world();
    const all = (await gw.api('GET', '/events', { host: w.hostA })).body.data.items.map((i: any) => i.eventId);
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 10; page++) {
      const res: any = await gw.api('GET', `/events?limit=3${after ? `&after=${after}` : ''}`, { host: w.hostA });
      expect(res.body.data.items.length).toBeLessThanOrEqual(3);
      seen.push(...res.body.data.items.map((i: any) => i.eventId));
      after = res.body.data.nextCursor;
      if (!res.body.data.hasMore) break;
    }
    expect(seen).toEqual(all);
    const idle = await gw.api('GET', `/events?after=${after}`, { host: w.hostA });
    expect(idle.body.data).toEqual({ items: [], nextCursor: after, hasMore: false });
    // a new event appears after the cursor
    const next = await aOneStepOrder(gw, w, { stage: 'accepted' });
    await relayed();
    const fresh = await gw.api('GET', `/events?after=${after}`, { host: w.hostA });
    expect(fresh.body.data.items.map((i: any) => i.data.orderId)).toEqual([next.id]);
  });

  it('surface O serves the same feed with its ids, and GraphQL the same query', async () => {
    const w = await world();
    const o = await gw.api('GET', '/events', { headers: await bearerOf(gw, w.distributor) });
    expect(o.status).toBe(200);
    expect(o.body.data.items.map((i: any) => i.eventId)).toEqual(
      (await gw.api('GET', '/events', { host: w.hostA })).body.data.items.map((i: any) => i.eventId),
    );
    const token = (await bearerOf(gw, w.other)).authorization.slice('Bearer '.length);
    const gql = await gw.graphql('{ events(limit: 10) { items { eventId event_type data occurredAt } nextCursor hasMore } }', {}, { token });
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data!.events.items.map((i: any) => i.data.orderId)).toEqual([w.ofB.id]);
    expect(gql.body.data!.events.items[0].data.distributorId).toBe(w.other.id);
  });

  it('answers 400 for a malformed cursor or limit, 401 without a token on surface O, and GraphQL refuses anonymous callers', async () => {
    const w = await world();
    expect((await gw.api('GET', '/events?after=abc', { host: w.hostA })).body).toEqual({ isError: true, errorMsg: 'invalid cursor', data: {} });
    const limit = await gw.api('GET', '/events?limit=0', { host: w.hostA });
    expect(limit.status).toBe(400);
    expect(limit.body.errorMsg).toBe('limit must be an integer from 1 to 1000');
    const anonymous = await gw.graphql('{ events { nextCursor } }');
    expect(anonymous.body.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
    const unmapped = await gw.api('GET', '/events', { host: 'nobody.test' });
    expect(unmapped.status).toBe(403);
  });
});
