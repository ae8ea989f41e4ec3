import { MikroORM } from '@mikro-orm/postgresql';
import { createGateway, type Gateway } from '../../src/app';
import { ManualClock } from '../../src/common/clock';
import { ormOptions } from '../../src/boot/orm';
import { aPendingOrder, moveOrder } from '../support/event.factories';
import { aMarket, anInvestor } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aDeliveringGateway, deliveryEvents, EVENT_TYPES, registerForEveryEvent, sentinel } from '../support/webhook-delivery';
import { makeCertificates, WebhookReceiver, type TestCertificates } from '../support/webhook-receiver';

describe('Webhook delivery: endpoints side by side', () => {
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

  it('one slow endpoint does not hold up the others', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    const other = await anInvestor(gw.em(), m.other, { grants: [m.shareClass] });
    await registerForEveryEvent(gw, receiver, m.hostA, '/slow');
    await registerForEveryEvent(gw, receiver, m.hostB, '/fast');
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
    const events = deliveryEvents(certs, 20);
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
