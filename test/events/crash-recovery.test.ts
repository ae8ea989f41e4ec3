import { ManualClock } from '../../src/common/clock';
import { openTestDatabase, serverUrl, type TestDatabase } from '../support/database';
import { aPendingOrder, moveOrder } from '../support/event.factories';
import { aMarket } from '../support/factories';
import { httpRequest } from '../support/http';
import { killed, startChildGateway, type ChildGateway } from '../support/child-gateway';
import { makeCertificates, verifyDelivery, WebhookReceiver, type TestCertificates } from '../support/webhook-receiver';

/**
 * The built gateway as its own process on PostgreSQL, killed with SIGKILL after an event
 * committed and before its delivery succeeded. The embedded database belongs to one process, so
 * this runs against a PostgreSQL server (DATABASE_URL) only.
 */
const onServer = serverUrl() ? describe : describe.skip;

onServer('A gateway killed between commit and delivery', () => {
  let db: TestDatabase;
  let certs: TestCertificates;
  let receiver: WebhookReceiver;
  let gateway: ChildGateway | null = null;
  const clock = new ManualClock();
  const env = () => ({
    DATABASE_URL: db.url!,
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    WEBHOOK_CA_FILE: certs.caFile,
    WEBHOOK_TIMEOUT_MS: '1000',
    EVENT_POLL_MS: '50',
  });
  beforeAll(async () => {
    certs = await makeCertificates();
    receiver = await WebhookReceiver.start(certs);
    db = await openTestDatabase(clock);
  });
  afterAll(async () => {
    if (gateway) await killed(gateway.child, 'SIGKILL');
    await db.close();
    await receiver.close();
    certs.cleanup();
  });

  it('delivers after a restart what committed before the SIGKILL, and what committed while it was down', async () => {
    // given: a running gateway, a webhook, and a receiver that holds the first attempt open
    const m = await aMarket(db.orm.em.fork(), clock.now());
    gateway = await startChildGateway(env());
    const reg = await httpRequest(gateway.port, 'POST', '/api/v1/webhooks/register', {
      host: m.hostA,
      body: { event_type: 'order.accepted', endpoint_url: receiver.url() },
    });
    expect(reg.status).toBe(200);
    receiver.respond = () => 'hang';
    const first = await aPendingOrder(db.orm, m, clock.now());
    await moveOrder(db.orm, first, 'accepted', clock.now());
    await receiver.waitFor((all) => all.length === 1);

    // when: the process dies mid-delivery; another event commits while it is down
    await killed(gateway.child, 'SIGKILL');
    gateway = null;
    const second = await aPendingOrder(db.orm, m, clock.now());
    await moveOrder(db.orm, second, 'accepted', clock.now());
    receiver.respond = () => ({ status: 200 });
    gateway = await startChildGateway(env());

    // then: both arrive, the interrupted one under the same webhook-id as before
    const all = await receiver.waitFor(
      (rs) => rs.some((r) => r.json.data.orderId === first && r !== rs[0]) && rs.some((r) => r.json.data.orderId === second),
      30_000,
    );
    const interrupted = all.filter((r) => r.json.data.orderId === first);
    expect(new Set(interrupted.map((r) => r.headers['webhook-id'])).size).toBe(1);
    for (const r of all.slice(1)) expect(verifyDelivery(reg.body.data.secret, r).data.status).toBe('accepted');
    let statuses: string[] = [];
    for (let i = 0; i < 100 && statuses.join() !== 'succeeded,succeeded'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      statuses = (await db.orm.em.fork().execute(`select status from webhook_delivery order by id`)).map((r: any) => r.status);
    }
    expect(statuses).toEqual(['succeeded', 'succeeded']);
    await killed(gateway.child, 'SIGTERM');
    gateway = null;
  });
});
