import { DomainEvent } from '../../src/events/event.entity';
import { Order, OrderStatusEntry } from '../../src/modules/order/order.entity';
import { signPayload } from '../../src/supply/signature';
import type { SupplySimulator } from '../../src/supply/simulator';
import { aMarket } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { httpRequest } from '../support/http';
import { aSimulator, aTwoStepOrder, connectCallbacks, providersFor, SIM, SIM_SECRET } from '../support/order.factories';

/**
 * Supply-side outcomes after `submitted` (accepted, rejected, settled, failed) reflected into
 * statusHistory: through the provider's signed callback `POST /supply/callbacks/:providerId`
 * (outside /api/v1) and through the ops GraphQL mutation `recordSupplyOutcome`.
 */
describe('Supply-side outcomes', () => {
  let gw: TestGateway;
  let sim: SupplySimulator;

  beforeAll(async () => {
    sim = await aSimulator();
    gw = await startTestGateway({ supply: providersFor(sim) });
    connectCallbacks(sim, gw);
  });
  afterAll(async () => {
    await gw.close();
    await sim.stop();
  });
  beforeEach(() => gw.reset());

  async function pushed(market?: Awaited<ReturnType<typeof aMarket>>) {
    const m = market ?? (await aMarket(gw.em(), gw.clock.now()));
    sim.addFund(m.shareClass.fund.id);
    const o = await aTwoStepOrder(gw, m);
    const res = await gw.api('POST', `/orders/subscriptions/push/${o.orderId}`, { host: m.hostA });
    expect(res.status).toBe(200);
    return { m, orderId: o.orderId as string, ref: res.body.data.supplyRefs[SIM].orderReference as string };
  }

  const history = async (orderId: string) =>
    (await gw.em().find(OrderStatusEntry, { order: orderId }, { orderBy: { at: 'asc' } })).map((e) => ({
      status: e.status,
      by: e.by,
      note: e.note ?? undefined,
    }));

  /** A callback signed with `secret` at `t`, sent as is. */
  function callback(body: unknown, opts: { secret?: string; t?: number; signedBody?: string; provider?: string; header?: string | null } = {}) {
    const raw = JSON.stringify(body);
    const t = opts.t ?? gw.clock.now().getTime();
    const signature = opts.header === null ? undefined : (opts.header ?? signPayload(opts.secret ?? SIM_SECRET, t, opts.signedBody ?? raw));
    return httpRequest(gw.port, 'POST', `/supply/callbacks/${opts.provider ?? SIM}`, {
      raw,
      headers: { 'content-type': 'application/json', ...(signature ? { 'x-supply-signature': signature } : {}) },
    });
  }

  describe('the provider callback', () => {
    it('accepted, then settled, from the provider itself: history entries by the provider, events for the webhooks', async () => {
      // given
      const { m, orderId, ref } = await pushed();
      // when
      gw.clock.advance(1000);
      const accepted = await sim.sendOutcome(ref, { status: 'accepted', note: 'checks passed' });
      gw.clock.advance(1000);
      const settled = await sim.sendOutcome(ref, { status: 'settled', transferHash: '0xabc123' });
      // then
      expect(accepted).toEqual({ status: 200, body: { isError: false, errorMsg: 'NA', data: { orderId, status: 'accepted' } } });
      expect(settled.body).toEqual({ isError: false, errorMsg: 'NA', data: { orderId, status: 'settled' } });
      expect(await history(orderId)).toEqual([
        { status: 'created', by: 'Network', note: undefined },
        { status: 'submitted', by: 'Network', note: `Pushed to ${SIM}; orderReference ${ref}` },
        { status: 'accepted', by: SIM, note: 'checks passed' },
        { status: 'settled', by: SIM, note: undefined },
      ]);
      const read = await gw.api('GET', `/orders/${orderId}`, { host: m.hostA });
      expect(read.body.data).toMatchObject({ status: 'settled', updatedBy: SIM });
      expect(Object.values(read.body.data.statusHistory).map((e: any) => e.status)).toEqual(['created', 'submitted', 'accepted', 'settled']);
      expect((await gw.em().findOneOrFail(Order, orderId)).transferHash).toBe('0xabc123');
      const events = await gw.em().find(DomainEvent, { aggregateId: orderId, type: 'order.transition' }, { orderBy: { position: 'asc' } });
      expect(events.map((e) => e.payload.webhookEvent)).toEqual([null, null, 'order.accepted', 'token.transfer_completed']);
    });

    it('rejected with a reason, and failed after acceptance', async () => {
      const a = await pushed();
      await sim.sendOutcome(a.ref, { status: 'rejected', reason: 'missed cut-off' });
      expect(await history(a.orderId)).toContainEqual({ status: 'rejected', by: SIM, note: 'missed cut-off' });
      expect((await gw.em().findOneOrFail(Order, a.orderId)).failureReason).toBe('missed cut-off');
      const b = await pushed(a.m);
      await sim.sendOutcome(b.ref, { status: 'accepted' });
      const failed = await sim.sendOutcome(b.ref, { status: 'failed', reason: 'out of gas', transferHash: '0xdead' });
      expect(failed.status).toBe(200);
      expect((await history(b.orderId)).map((e) => e.status)).toEqual(['created', 'submitted', 'accepted', 'failed']);
    });

    it('a repeated delivery changes nothing; an outcome out of order is 409', async () => {
      const { orderId, ref } = await pushed();
      const early = await sim.sendOutcome(ref, { status: 'settled' });
      expect(early).toEqual({
        status: 409,
        body: { isError: true, errorMsg: 'Cannot record supply outcome "settled" for subscription in status "submitted"', data: {} },
      });
      await sim.sendOutcome(ref, { status: 'accepted' });
      const again = await sim.sendOutcome(ref, { status: 'accepted' });
      expect(again.status).toBe(200);
      expect((await history(orderId)).map((e) => e.status)).toEqual(['created', 'submitted', 'accepted']);
      const bad = await callback({ orderId, orderReference: ref, status: 'teleported' });
      expect(bad.body).toEqual({ isError: true, errorMsg: 'status must be one of accepted, rejected, settled, failed', data: {} });
    });

    it('forged, tampered, stale or unsigned callbacks are 401 and change nothing', async () => {
      const { orderId, ref } = await pushed();
      const body = { orderId, orderReference: ref, status: 'accepted' };
      const now = gw.clock.now().getTime();
      const attempts = [
        callback(body, { secret: 'not-the-secret-0123456789abcdef' }),
        callback(body, { signedBody: JSON.stringify({ ...body, status: 'rejected' }) }),
        callback(body, { t: now - 10 * 60_000 }),
        callback(body, { header: null }),
        callback(body, { header: 't=1,v1=zz' }),
        callback(body, { provider: 'other-provider' }),
      ];
      for (const res of await Promise.all(attempts)) {
        expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: { isError: true, errorMsg: 'invalid signature', data: {} } });
      }
      expect((await history(orderId)).map((e) => e.status)).toEqual(['created', 'submitted']);
      // the same body, signed properly, goes through
      expect((await callback(body)).status).toBe(200);
    });

    it('the provider can only speak of orders pushed to it, by the reference it gave', async () => {
      const { m, orderId } = await pushed();
      const notPushed = await aTwoStepOrder(gw, m);
      for (const body of [
        { orderId: notPushed.orderId, orderReference: 'SIM-00000001', status: 'accepted' },
        { orderId, orderReference: 'SIM-99999999', status: 'accepted' },
        { orderId: 'OR999999', status: 'accepted' },
      ]) {
        const res = await callback(body);
        expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: { isError: true, errorMsg: 'order not found', data: {} } });
      }
    });

    it('is not part of the REST surfaces', async () => {
      const res = await gw.api('POST', `/supply/callbacks/${SIM}`, { host: 'dist-a.test', body: {} });
      expect(res.status).toBe(404);
    });
  });

  describe('the ops mutation recordSupplyOutcome', () => {
    const MUTATION = `mutation($input: SupplyOutcomeInput!) { recordSupplyOutcome(input: $input) { orderId status statusHistory { status by note } } }`;

    it('records an outcome by the ops actor, under the same rules as the callback', async () => {
      const { orderId } = await pushed();
      const token = await gw.opsToken();
      const res = await gw.graphql(MUTATION, { input: { orderId, outcome: 'accepted', note: 'confirmed by phone' } }, { token });
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.recordSupplyOutcome).toEqual({
        orderId,
        status: 'accepted',
        statusHistory: [
          { status: 'created', by: 'Network', note: null },
          { status: 'submitted', by: 'Network', note: expect.stringMatching(/^Pushed to supply-sim/) },
          { status: 'accepted', by: 'test-ops', note: 'confirmed by phone' },
        ],
      });
      const early = await gw.graphql(MUTATION, { input: { orderId, outcome: 'rejected' } }, { token });
      expect(early.body.errors![0]).toMatchObject({
        message: 'Cannot record supply outcome "rejected" for subscription in status "accepted"',
        extensions: { code: 'CONFLICT' },
      });
    });

    it('is refused without an ops token', async () => {
      const { orderId } = await pushed();
      const res = await gw.graphql(MUTATION, { input: { orderId, outcome: 'accepted' } });
      expect(res.body.errors![0]).toMatchObject({ message: 'authentication required', extensions: { code: 'UNAUTHENTICATED' } });
      expect((await history(orderId)).map((e) => e.status)).toEqual(['created', 'submitted']);
    });
  });
});
