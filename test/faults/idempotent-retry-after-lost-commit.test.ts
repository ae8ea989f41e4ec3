import { MikroORM } from '@mikro-orm/postgresql';
import { createGateway, type Gateway } from '../../src/app';
import { ManualClock } from '../../src/common/clock';
import { ormOptions } from '../../src/boot/orm';
import { openTestDatabase, serverUrl, type TestDatabase } from '../support/database';
import { ordersWithEventCounts } from '../support/event.factories';
import { aMarket } from '../support/factories';
import { httpRequest } from '../support/http';
import { TcpProxy } from '../support/tcp-proxy';

/**
 * A write with an Idempotency-Key whose connection drops while it commits: the gateway cannot
 * know whether it committed, answers 503, and the retry with the same key must neither lose the
 * order nor place it twice. The gateway reaches PostgreSQL through a proxy that drops the
 * connection at the COMMIT (after it reached the server, or before); a PostgreSQL server only, as
 * the proxy speaks to it over TCP.
 */
const onServer = serverUrl() ? describe : describe.skip;

onServer('Idempotency-Key and a connection lost at the commit', () => {
  const clock = new ManualClock();
  let db: TestDatabase;
  let proxy: TcpProxy;
  let orm: MikroORM;
  let gateway: Gateway;
  let port: number;

  beforeAll(async () => {
    db = await openTestDatabase(clock);
    const url = new URL(db.url!);
    proxy = await TcpProxy.start(url.hostname, Number(url.port || 5432));
    orm = await MikroORM.init({ ...ormOptions(clock), clientUrl: proxy.via(db.url!), pool: { min: 0, max: 4 } });
    gateway = await createGateway({ config: { env: 'test', bodyLimit: '100kb' }, orm, clock, background: false });
    port = await gateway.listen(0, '127.0.0.1');
  });
  afterAll(async () => {
    await gateway?.close();
    await orm?.close(true);
    await proxy?.close();
    await db?.close();
  });
  beforeEach(async () => {
    await db.truncate();
    gateway.services.readCache.clear();
  });

  const place = async (key: string) => {
    const m = await aMarket(db.orm.em.fork(), clock.now());
    const body = { distributorId: m.distributor.id, investorId: m.investor.id, shareClassId: m.shareClass.id, amount: 250 };
    return { m, send: () => httpRequest(port, 'POST', '/api/v1/orders/subscribe', { host: m.hostA, headers: { 'idempotency-key': key }, body }) };
  };
  const orders = (distributorId: string) => ordersWithEventCounts(db.orm.em.fork(), distributorId);

  it('the commit reached the server, its answer was lost: 503 with Retry-After, and the retry replays the committed order', async () => {
    // given
    const { m, send } = await place('lost-answer');
    // when the connection drops once the COMMIT has reached the server
    const sprung = proxy.trapNext(/\bcommit\b/i, 'after');
    const first = await send();
    await sprung;
    // then the first answer is a retryable 503, not a 200 and not a 500
    expect(first.status).toBe(503);
    expect(first.headers['retry-after']).toBe('1');
    expect(first.body).toEqual({ isError: true, errorMsg: 'service temporarily unavailable', data: {} });
    // and the order committed, once, with its event
    const committed = await orders(m.distributor.id);
    expect(committed).toHaveLength(1);
    // when the client retries with the same key
    const retry = await send();
    // then it gets the committed order, replayed, and nothing is placed twice
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body.data.orderId).toBe(committed[0].id);
    expect(await orders(m.distributor.id)).toEqual([{ id: committed[0].id, events: 1 }]);
  });

  it('the commit never reached the server: 503, nothing written, and the retry places the order once', async () => {
    // given
    const { m, send } = await place('lost-commit');
    // when the connection drops before the COMMIT reaches the server
    const sprung = proxy.trapNext(/\bcommit\b/i, 'before');
    const first = await send();
    await sprung;
    // then
    expect(first.status).toBe(503);
    expect(first.headers['retry-after']).toBe('1');
    expect(await orders(m.distributor.id)).toEqual([]);
    // when the client retries with the same key
    const retry = await send();
    // then it runs anew and places the order once
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(await orders(m.distributor.id)).toEqual([{ id: retry.body.data.orderId, events: 1 }]);
  });

  it('the commit never reached the server and the database stayed away for the next statement too: the retry is not told to wait, it places the order once', async () => {
    // given
    const { m, send } = await place('lost-twice');
    // when the COMMIT is lost and so is whatever the gateway sends next to give the key back
    const sprung = proxy.trapNext(/\bcommit\b/i, 'before');
    void proxy.trapNext(/delete from idempotency_key where distributor_id = .* and state = 'running'/i, 'before');
    const first = await send();
    await sprung;
    expect(first.status).toBe(503);
    // then the retry is not "still being processed" for minutes: the key went with its transaction
    const retry = await send();
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(await orders(m.distributor.id)).toEqual([{ id: retry.body.data.orderId, events: 1 }]);
  });
});
