import { Webhook as StandardWebhook } from 'standardwebhooks';
import { parseEvents } from '../../src/config/events';
import { MODULE_PARTS } from '../../src/modules/manifests';
import { openApiDocument } from '../../rest-compat/openapi/document';
import { SURFACE_O } from '../../rest-compat/surface-o';
import { bearerOf } from '../support/auth.factories';
import { assertWebhookMatchesContract } from '../support/contract';
import { aMarket } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { makeCertificates, WebhookReceiver, type TestCertificates } from '../support/webhook-receiver';

/*
 * A distributor builds its receiver on a laptop (docs/api.md, "A receiver on your machine"): a
 * development gateway started with WEBHOOK_ALLOWED_HOSTS=127.0.0.1 and WEBHOOK_CA_FILE naming the
 * receiver's CA delivers a signed test event to https://127.0.0.1:<port> on either surface, and
 * the `standardwebhooks` library verifies it with the secret registration returned.
 */
describe('a development gateway and a local HTTPS receiver', () => {
  let gw: TestGateway;
  let certs: TestCertificates;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    certs = await makeCertificates();
    receiver = await WebhookReceiver.start(certs);
    // The settings as the environment gives them, read as `npm start` reads them.
    const problems: string[] = [];
    const events = parseEvents({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_CA_FILE: certs.caFile }, 'development', (_n, fallback) => fallback, problems);
    expect(problems).toEqual([]);
    gw = await startTestGateway({ background: true, config: { env: 'development' }, events });
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

  /** Registers, asks for a test delivery, and verifies what arrived as a receiver would: with the library, on the raw body. */
  async function testDelivery(auth: { host?: string; headers?: Record<string, string> }, eventType: string) {
    const reg = await gw.api('POST', '/webhooks/register', { ...auth, body: { event_type: eventType, endpoint_url: receiver.url('/hooks') } });
    expect([reg.status, reg.body.errorMsg]).toEqual([200, 'NA']);
    const res = await gw.api('POST', '/webhooks/test', { ...auth, body: { event_type: eventType, webhook_id: reg.body.data.id } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ success: true, message: expect.stringMatching(/^test event evt_[0-9a-f]+ delivered \(HTTP 200\)$/) });
    expect(receiver.received).toHaveLength(1);
    const [delivery] = receiver.received;
    const verified = new StandardWebhook(reg.body.data.secret).verify(delivery.body, delivery.headers as Record<string, string>);
    expect(verified).toMatchObject({ event_type: eventType, data: { test: true, eventId: delivery.headers['webhook-id'] } });
    // Its payload is the one the documents' `webhooks` section declares for the type, field for field.
    assertWebhookMatchesContract(delivery.body);
    // A body altered on the way fails verification.
    expect(() =>
      new StandardWebhook(reg.body.data.secret).verify(delivery.body.replace('"test":true', '"test":false'), delivery.headers as Record<string, string>),
    ).toThrow();
    return verified as { data: Record<string, unknown> };
  }

  it('surface R: a signed test event reaches https://127.0.0.1:<port> and standardwebhooks verifies it', async () => {
    const { hostA } = await aMarket(gw.em(), gw.clock.now());
    const { data } = await testDelivery({ host: hostA }, 'order.accepted');
    expect(data).toMatchObject({ status: 'accepted', flow: 'one_step' });
  });

  it('surface O: the same with a Bearer token, on the same path', async () => {
    const { distributor } = await aMarket(gw.em(), gw.clock.now());
    const { data } = await testDelivery({ headers: await bearerOf(gw, distributor) }, 'token.transfer_completed');
    expect(data).toMatchObject({ status: 'settled' });
  });

  it('every event type registration accepts can be tested, its payload as documented (one list: the schema enum, the error message, the test endpoint)', async () => {
    const { distributor } = await aMarket(gw.em(), gw.clock.now());
    const headers = await bearerOf(gw, distributor);
    for (const type of MODULE_PARTS.webhookEvents.types) {
      receiver.reset();
      await testDelivery({ headers }, type);
    }
    const unknown = await gw.api('POST', '/webhooks/register', { headers, body: { event_type: 'order.created', endpoint_url: receiver.url() } });
    expect([unknown.status, unknown.body.errorMsg]).toEqual([400, `event_type must be one of ${MODULE_PARTS.webhookEvents.types.join(', ')}`]);
  });

  it("the surface-O document's own register example is a URL this gateway accepts", async () => {
    const doc = openApiDocument('O', SURFACE_O) as any;
    const example = doc.paths['/webhooks/register'].post.responses['200'].content['application/json'].example.data;
    const { distributor } = await aMarket(gw.em(), gw.clock.now());
    const res = await gw.api('POST', '/webhooks/register', {
      headers: await bearerOf(gw, distributor),
      body: { event_type: example.event_type, endpoint_url: example.endpoint_url },
    });
    expect([res.status, res.body.data?.endpoint_url]).toEqual([200, example.endpoint_url]);
  });
});
