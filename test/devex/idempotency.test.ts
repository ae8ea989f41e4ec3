import { Order } from '../../src/modules/order/order.entity';
import { IdempotencyKey } from '../../src/modules/idempotency/idempotency-key.entity';
import { bearerOf } from '../support/auth.factories';
import { aMarket, anInvestor } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';

/** Idempotency-Key on the POSTs of both surfaces (docs/api.md, "Idempotency-Key"). */
describe('Idempotency-Key', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ poolMax: 20 });
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  const oneStep = (m: Awaited<ReturnType<typeof aMarket>>, amount = 250) => ({
    distributorId: m.distributor.id,
    investorId: m.investor.id,
    shareClassId: m.shareClass.id,
    amount,
  });
  const orderCount = async () => gw.em().count(Order, {});

  it('50 concurrent identical POST /orders/subscribe with one key create exactly one order; every answer is that order or the 409 of a request that arrived while it ran', async () => {
    // given
    const m = await aMarket(gw.em(), gw.clock.now());
    const body = oneStep(m);
    // when
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => gw.api('POST', '/orders/subscribe', { host: m.hostA, headers: { 'idempotency-key': 'retry-1' }, body })),
    );
    // then
    expect(await orderCount()).toBe(1);
    const [order] = await gw.em().find(Order, {});
    const created = answers.filter((a) => a.status === 200);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const a of created) expect(a.body.data.orderId).toBe(order.id);
    expect(created.filter((a) => a.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) {
      expect(a.status).toBe(409);
      expect(a.body).toEqual({ isError: true, errorMsg: 'a request with this Idempotency-Key is still being processed; retry later', data: {} });
    }
  });

  it('the same key with the same request replays the first answer, status included, with Idempotent-Replayed: true', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    const first = await gw.api('POST', '/orders/subscribe', { host: m.hostA, headers: { 'idempotency-key': 'k-1' }, body: oneStep(m) });
    // the body's keys in another order are the same request
    const { amount, ...rest } = oneStep(m);
    const again = await gw.api('POST', '/orders/subscribe', { host: m.hostA, headers: { 'idempotency-key': 'k-1' }, body: { amount, ...rest } });
    expect(first.status).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await orderCount()).toBe(1);
  });

  it('a replay is the first answer byte for byte, keys in the order first sent (jsonb would reorder them), on both surfaces', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    const bearer = { ...(await bearerOf(gw, m.distributor)), 'idempotency-key': 'bytes-o' };
    const bodyO = {
      distributorId: m.distributor.id.replace('DT', 'PT'),
      userId: m.investor.id.replace('IN', 'US'),
      shareClassId: m.shareClass.id,
      amount: 100.5,
    };
    const redeemR = { distributorId: m.distributor.id, investorId: m.investor.id, shareClassId: m.shareClass.id, tokenCount: 0 };
    for (const send of [
      () => gw.api('POST', '/orders/subscribe', { headers: bearer, body: bodyO }),
      () => gw.api('POST', '/orders/redeem', { host: 'dist-a.test', headers: { 'idempotency-key': 'bytes-r' }, body: redeemR }),
    ]) {
      const first = await send();
      const again = await send();
      expect(first.status).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(Buffer.from(again.text)).toEqual(Buffer.from(first.text));
      expect(again.headers['content-length']).toBe(first.headers['content-length']);
      // what a jsonb column gives back is another text: the order of the keys is its own
      const keys = Object.keys(JSON.parse(first.text).data);
      expect(keys.slice(0, 3)).toEqual(['orderId', 'status', 'type']);
    }
    const kept = await gw.em().find(IdempotencyKey, {}, { orderBy: { key: 'asc' } });
    expect(kept.map((k) => typeof k.responseBody)).toEqual(['string', 'string']);
  });

  it('a replayed error keeps its status: a second push is the documented 409, and its replay too', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    const placed = await gw.api('POST', '/orders/subscribe', { host: m.hostA, body: oneStep(m) });
    const cancel = (key: string) => gw.api('POST', `/orders/cancel/${placed.body.data.orderId}`, { host: m.hostA, headers: { 'idempotency-key': key } });
    expect((await cancel('c-1')).status).toBe(200);
    const refused = await cancel('c-2');
    expect(refused.status).toBe(409);
    const replay = await cancel('c-2');
    expect(replay.status).toBe(409);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(refused.body);
  });

  it('the same key with a different request answers 422 and creates nothing', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    await gw.api('POST', '/orders/subscribe', { host: m.hostA, headers: { 'idempotency-key': 'k-2' }, body: oneStep(m, 250) });
    const other = await gw.api('POST', '/orders/subscribe', { host: m.hostA, headers: { 'idempotency-key': 'k-2' }, body: oneStep(m, 300) });
    expect(other.status).toBe(422);
    expect(other.body).toEqual({ isError: true, errorMsg: 'Idempotency-Key was already used with a different request', data: {} });
    const otherPath = await gw.api('POST', '/orders/redeem', { host: m.hostA, headers: { 'idempotency-key': 'k-2' }, body: { ...oneStep(m), tokenCount: 1 } });
    expect(otherPath.status).toBe(422);
    expect(await orderCount()).toBe(1);
  });

  it('without the header nothing changes: the same request twice creates two orders', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    await gw.api('POST', '/orders/subscribe', { host: m.hostA, body: oneStep(m) });
    await gw.api('POST', '/orders/subscribe', { host: m.hostA, body: oneStep(m) });
    expect(await orderCount()).toBe(2);
  });

  it('keys are scoped to the calling distributor: another distributor with the same key runs its own request', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    const investorB = await anInvestor(gw.em(), m.other, { grants: [m.shareClass] });
    const a = await gw.api('POST', '/orders/subscribe', { host: m.hostA, headers: { 'idempotency-key': 'shared' }, body: oneStep(m) });
    const b = await gw.api('POST', '/orders/subscribe', {
      host: m.hostB,
      headers: { 'idempotency-key': 'shared' },
      body: { distributorId: m.other.id, investorId: investorB.id, shareClassId: m.shareClass.id, amount: 250 },
    });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(b.body.data.orderId).not.toBe(a.body.data.orderId);
  });

  it('works on surface O: a retried POST /orders/subscribe replays the order', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    const headers = { ...(await bearerOf(gw, m.distributor)), 'idempotency-key': 'o-1' };
    const body = { distributorId: m.distributor.id.replace('DT', 'PT'), userId: m.investor.id.replace('IN', 'US'), shareClassId: m.shareClass.id, amount: 100 };
    const first = await gw.api('POST', '/orders/subscribe', { headers, body });
    const again = await gw.api('POST', '/orders/subscribe', { headers, body });
    expect(first.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await orderCount()).toBe(1);
  });

  it('a key is kept 24 hours: after that the same request runs again, and the expired row is cleaned up', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    const start = Date.now();
    gw.clock.set(new Date(start));
    await gw.api('POST', '/orders/subscribe', { host: m.hostA, headers: { 'idempotency-key': 'day' }, body: oneStep(m) });
    gw.clock.set(new Date(start + 24 * 3600_000 + 1000));
    const later = await gw.api('POST', '/orders/subscribe', { host: m.hostA, headers: { 'idempotency-key': 'day' }, body: oneStep(m) });
    expect(later.status).toBe(200);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(await orderCount()).toBe(2);
    const rows = await gw.em().find(IdempotencyKey, {});
    expect(rows).toHaveLength(1);
    expect(rows[0].createdAt.getTime()).toBe(start + 24 * 3600_000 + 1000);
  });

  it('a malformed key answers 400 and runs nothing', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    const res = await gw.api('POST', '/orders/subscribe', { host: m.hostA, headers: { 'idempotency-key': 'x'.repeat(256) }, body: oneStep(m) });
    expect(res.status).toBe(400);
    expect(res.body.errorMsg).toBe('Idempotency-Key must be 1 to 255 printable ASCII characters');
    expect(await orderCount()).toBe(0);
  });
});
