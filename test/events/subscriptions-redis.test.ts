import { MikroORM } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { createGateway, type Gateway } from '../../src/app';
import { ManualClock } from '../../src/common/clock';
import { ormOptions } from '../../src/boot/orm';
import { aPendingOrder, moveOrder } from '../support/event.factories';
import { aMarket } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { httpRequest } from '../support/http';
import { requiredRedis } from '../support/redis';
import { ORDER_UPDATES, subscribe } from '../support/subscriptions';

describe('Redis fan-out: two gateway instances on one database serve the same subscriptions', () => {
  let first: TestGateway;
  let second: Gateway;
  let secondPort: number;
  let secondOrm: MikroORM | null = null;
  beforeAll(async () => {
    const redisUrl = await requiredRedis();
    // A channel prefix of this run's own, so runs sharing the Redis never hear each other.
    const events = { pollMs: 50, redisUrl, redisChannelPrefix: `test-${randomUUID()}:` };
    first = await startTestGateway({ background: true, events });
    const orm = first.db.url
      ? (secondOrm = await MikroORM.init({ ...ormOptions(first.clock), clientUrl: first.db.url, pool: { min: 0, max: 10 } }))
      : first.db.orm;
    // A read cache that only the bus can invalidate within the test: its entries live ten minutes.
    second = await createGateway({ config: { env: 'test', bodyLimit: '100kb' }, orm, clock: new ManualClock(), events, readCacheTtlMs: 10 * 60_000 });
    secondPort = await second.listen(0, '127.0.0.1');
  });
  afterAll(async () => {
    await second?.close();
    await secondOrm?.close(true);
    await first?.close();
  });

  it('clients of either instance receive every transition once, in order, whichever instance relayed it', async () => {
    const m = await aMarket(first.em(), first.clock.now());
    const token = await first.opsToken();
    const onFirst = await subscribe(first.port, ORDER_UPDATES, {}, token);
    const onSecond = await subscribe(secondPort, ORDER_UPDATES, {}, token);
    const orders: string[] = [];
    for (let i = 0; i < 5; i++) {
      const o = await aPendingOrder(first.db.orm, m, first.clock.now());
      orders.push(o);
      await moveOrder(first.db.orm, o, 'accepted', first.clock.now());
    }
    // a sentinel, committed after the ten: each client gets it eleventh, with nothing twice before it
    const sentinel = await aPendingOrder(first.db.orm, m, first.clock.now());
    for (const s of [onFirst, onSecond]) {
      const got = await s.waitFor(11);
      expect(got[10].orderUpdated.orderId).toBe(sentinel);
      expect(new Set(got.slice(0, 10).map((x) => x.orderUpdated.eventId)).size).toBe(10);
      for (const o of orders) expect(s.messages.filter((x) => x.orderUpdated.orderId === o).map((x) => x.orderUpdated.sequence)).toEqual([1, 2]);
    }
    await onFirst.close();
    await onSecond.close();
  });

  it('a NAV published through one instance is served at once by the other: its read cache follows committed changes on the bus', async () => {
    // a fresh database: the second instance's workers, too, hold locks TRUNCATE waits for
    await second.background.stop();
    await first.reset();
    await second.background.start();
    const m = await aMarket(first.em(), first.clock.now());
    const liveCloseOnSecond = async () =>
      (await httpRequest(secondPort, 'GET', `/api/v1/funds/shareclass/nav/live?shareClassId=${m.shareClass.id}`, { host: m.hostA })).body.data.close;
    expect(await liveCloseOnSecond()).toBe('1.25'); // now in the second instance's cache
    const published = await first.graphql(
      'mutation($input: PublishNavInput!) { publishNav(input: $input) { close } }',
      { input: { shareClassId: m.shareClass.id, close: '1.26' } },
      { token: await first.opsToken() },
    );
    expect(published.body.data.publishNav.close).toBe('1.26');
    // The event reaches the second instance through the relay and Redis (its cache's own expiry is ten minutes away).
    let seen = await liveCloseOnSecond();
    for (let tries = 0; seen !== '1.26' && tries < 100; tries++) {
      await new Promise((r) => setTimeout(r, 100));
      seen = await liveCloseOnSecond();
    }
    expect(seen).toBe('1.26');
  });
});
