import { MODULE_PARTS } from '../../src/modules/manifests';
import { aMarket } from '../support/factories';
import { bearerOf } from '../support/auth.factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { makeCertificates, verifyDelivery, WebhookReceiver, type TestCertificates } from '../support/webhook-receiver';

const EVENT_TYPES = ['order.accepted', 'order.rejected', 'token.transfer_completed', 'token.transfer_failed'];

describe('Surface R: webhooks', () => {
  let gw: TestGateway;
  let certs: TestCertificates;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    certs = await makeCertificates();
    receiver = await WebhookReceiver.start(certs);
    gw = await startTestGateway({ background: true, events: { webhookAllowedHosts: ['127.0.0.1'], webhookCaFile: certs.caFile } });
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

  const register = (host: string, body: Record<string, unknown>) => gw.api('POST', '/webhooks/register', { host, body });

  it('POST /webhooks/register returns the webhook record, and once the whsec_ signing secret of 24+ random bytes', async () => {
    // given
    const { hostA } = await aMarket(gw.em(), gw.clock.now());
    // when
    const res = await register(hostA, { event_type: 'order.accepted', endpoint_url: 'https://hooks.partner-a.example/fund' });
    // then
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ isError: false, errorMsg: 'NA' });
    expect(Object.keys(res.body.data).sort()).toEqual(['createdAt', 'createdBy', 'endpoint_url', 'event_type', 'id', 'secret']);
    expect(res.body.data).toMatchObject({ event_type: 'order.accepted', endpoint_url: 'https://hooks.partner-a.example/fund', createdBy: 'Network' });
    expect(res.body.data.id).toMatch(/^wh_[0-9a-f]+$/);
    expect(typeof res.body.data.createdAt).toBe('number');
    expect(res.body.data.secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    expect(Buffer.from(res.body.data.secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);
    // the secret is not shown again
    const list = await gw.api('GET', '/webhooks', { host: hostA });
    expect(list.body.data).toEqual([
      {
        id: res.body.data.id,
        event_type: 'order.accepted',
        endpoint_url: 'https://hooks.partner-a.example/fund',
        createdAt: res.body.data.createdAt,
        createdBy: 'Network',
      },
    ]);
  });

  it('the x-actor header stamps createdBy', async () => {
    const { hostA } = await aMarket(gw.em(), gw.clock.now());
    const res = await gw.api('POST', '/webhooks/register', {
      host: hostA,
      headers: { 'x-actor': 'alice' },
      body: { event_type: 'order.rejected', endpoint_url: 'https://hooks.partner-a.example/x' },
    });
    expect(res.body.data.createdBy).toBe('alice');
  });

  it('register answers the documented messages for missing, unknown and non-HTTPS input', async () => {
    const { hostA } = await aMarket(gw.em(), gw.clock.now());
    const cases: [Record<string, unknown>, string][] = [
      [{ endpoint_url: 'https://a.example/x' }, 'event_type is required'],
      [{ event_type: '', endpoint_url: 'https://a.example/x' }, 'event_type is required'],
      [{ event_type: 'order.accepted' }, 'endpoint_url is required'],
      [{ event_type: 'order.created', endpoint_url: 'https://a.example/x' }, `event_type must be one of ${MODULE_PARTS.webhookEvents.types.join(', ')}`],
      [{ event_type: 'order.accepted', endpoint_url: 'http://a.example/x' }, 'endpoint_url must be HTTPS'],
      [{ event_type: 'order.accepted', endpoint_url: 'a.example/x' }, 'endpoint_url must be HTTPS'],
      [{ event_type: 'order.accepted', endpoint_url: 'ftp://a.example/x' }, 'endpoint_url must be HTTPS'],
      [{ event_type: 42, endpoint_url: 'https://a.example/x' }, 'event_type must be a string'],
    ];
    for (const [body, message] of cases) {
      const res = await register(hostA, body);
      expect({ body, status: res.status, res: res.body }).toEqual({ body, status: 400, res: { isError: true, errorMsg: message, data: {} } });
    }
  });

  it('register refuses endpoints on loopback, private, link-local, CGNAT, unique-local and metadata addresses', async () => {
    const strict = await startTestGateway({ background: true, events: { webhookAllowedHosts: [] } });
    try {
      const { hostA } = await aMarket(strict.em(), strict.clock.now());
      for (const url of [
        'https://127.0.0.1/x',
        'https://localhost/x',
        'https://10.1.2.3/x',
        'https://172.16.5.5/x',
        'https://192.168.1.1/x',
        'https://169.254.169.254/latest/meta-data',
        'https://100.64.0.1/x',
        'https://[::1]/x',
        'https://[fd00::1]/x',
        'https://[fe80::1]/x',
        'https://0.0.0.0/x',
        'https://[::ffff:127.0.0.1]/x',
      ]) {
        const res = await strict.api('POST', '/webhooks/register', { host: hostA, body: { event_type: 'order.accepted', endpoint_url: url } });
        expect({ url, status: res.status, msg: res.body.errorMsg }).toEqual({ url, status: 400, msg: 'endpoint_url must resolve to a public address' });
      }
      const ok = await strict.api('POST', '/webhooks/register', { host: hostA, body: { event_type: 'order.accepted', endpoint_url: 'https://8.8.8.8/hook' } });
      expect(ok.status).toBe(200);
    } finally {
      await strict.close();
    }
  });

  it('one event type per registration: the same URL registered once per event; the same pair twice is a conflict', async () => {
    const { hostA } = await aMarket(gw.em(), gw.clock.now());
    for (const event_type of EVENT_TYPES) expect((await register(hostA, { event_type, endpoint_url: 'https://a.example/all' })).status).toBe(200);
    const again = await register(hostA, { event_type: 'order.accepted', endpoint_url: 'https://a.example/all' });
    expect(again.status).toBe(409);
    expect(again.body.errorMsg).toBe('endpoint_url is already registered for order.accepted');
    const list = await gw.api('GET', '/webhooks', { host: hostA });
    expect(list.body.data.map((w: any) => w.event_type)).toEqual(EVENT_TYPES);
  });

  it("GET /webhooks lists only the calling distributor's webhooks, as an array in data", async () => {
    const { hostA, hostB } = await aMarket(gw.em(), gw.clock.now());
    await register(hostA, { event_type: 'order.accepted', endpoint_url: 'https://a.example/x' });
    await register(hostB, { event_type: 'order.accepted', endpoint_url: 'https://b.example/x' });
    const a = await gw.api('GET', '/webhooks', { host: hostA });
    expect(a.status).toBe(200);
    expect(a.body.data.map((w: any) => w.endpoint_url)).toEqual(['https://a.example/x']);
    const b = await gw.api('GET', '/webhooks', { host: hostB });
    expect(b.body.data.map((w: any) => w.endpoint_url)).toEqual(['https://b.example/x']);
  });

  it('GET /webhooks/check reads endpoint_url from the body and answers exists and event_types for the caller only', async () => {
    const { hostA, hostB } = await aMarket(gw.em(), gw.clock.now());
    await register(hostA, { event_type: 'order.accepted', endpoint_url: 'https://a.example/x' });
    await register(hostA, { event_type: 'token.transfer_failed', endpoint_url: 'https://a.example/x' });
    const mine = await gw.api('GET', '/webhooks/check', { host: hostA, body: { endpoint_url: 'https://a.example/x' } });
    expect(mine.body).toEqual({ isError: false, errorMsg: 'NA', data: { exists: true, event_types: ['order.accepted', 'token.transfer_failed'] } });
    const theirs = await gw.api('GET', '/webhooks/check', { host: hostB, body: { endpoint_url: 'https://a.example/x' } });
    expect(theirs.body.data).toEqual({ exists: false, event_types: [] });
    const missing = await gw.api('GET', '/webhooks/check', { host: hostA, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.errorMsg).toBe('endpoint_url is required');
  });

  it('POST /webhooks/test sends a synthetic event shaped like the real one, marked test: true, signed, and answers success and message', async () => {
    // given
    const { hostA, distributor, shareClass } = await aMarket(gw.em(), gw.clock.now());
    const reg = await register(hostA, { event_type: 'token.transfer_completed', endpoint_url: receiver.url('/a') });
    // when
    const res = await gw.api('POST', '/webhooks/test', { host: hostA, body: { event_type: 'token.transfer_completed', webhook_id: reg.body.data.id } });
    // then
    expect(res.status).toBe(200);
    expect(res.body.data.success).toBe(true);
    expect(res.body.data.message).toMatch(/^test event evt_[0-9a-f]+ delivered \(HTTP 200\)$/);
    expect(receiver.received).toHaveLength(1);
    const payload = verifyDelivery(reg.body.data.secret, receiver.received[0]);
    expect(payload.event_type).toBe('token.transfer_completed');
    expect(payload.data).toMatchObject({
      test: true,
      status: 'settled',
      distributorId: distributor.id,
      shareClassId: shareClass.id,
      flow: 'one_step',
      type: 'subscribe',
    });
    expect(receiver.received[0].headers['webhook-id']).toBe(payload.data.eventId);
    expect(Object.keys(payload.data).sort()).toEqual(
      [
        'amount',
        'currency',
        'cutOffAt',
        'dealingDate',
        'distributorId',
        'eventId',
        'expectedSettlementDate',
        'flow',
        'investorId',
        'occurredAt',
        'orderId',
        'previousStatus',
        'reason',
        'sequence',
        'settlementAmount',
        'settlementNav',
        'settlementTokens',
        'shareClassId',
        'status',
        'test',
        'tokenCount',
        'transferHash',
        'type',
      ].sort(),
    );
  });

  it('POST /webhooks/test reports a failing endpoint with success false', async () => {
    const { hostA } = await aMarket(gw.em(), gw.clock.now());
    const reg = await register(hostA, { event_type: 'order.rejected', endpoint_url: receiver.url('/down') });
    receiver.respond = () => ({ status: 500 });
    const res = await gw.api('POST', '/webhooks/test', { host: hostA, body: { event_type: 'order.rejected', webhook_id: reg.body.data.id } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ success: false, message: expect.stringMatching(/not delivered: HTTP 500$/) });
  });

  it("POST /webhooks/test: another distributor's or an unknown webhook is 404 `webhook_id not found`; event_type must match", async () => {
    const { hostA, hostB } = await aMarket(gw.em(), gw.clock.now());
    const reg = await register(hostA, { event_type: 'order.accepted', endpoint_url: receiver.url() });
    for (const [host, id] of [
      [hostB, reg.body.data.id],
      [hostA, 'wh_nope'],
    ]) {
      const res = await gw.api('POST', '/webhooks/test', { host, body: { event_type: 'order.accepted', webhook_id: id } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ isError: true, errorMsg: 'webhook_id not found', data: {} });
    }
    const mismatch = await gw.api('POST', '/webhooks/test', { host: hostA, body: { event_type: 'order.rejected', webhook_id: reg.body.data.id } });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.errorMsg).toBe("event_type must match the webhook's event_type");
    const noId = await gw.api('POST', '/webhooks/test', { host: hostA, body: { event_type: 'order.accepted' } });
    expect(noId.body.errorMsg).toBe('webhook_id is required');
    const noType = await gw.api('POST', '/webhooks/test', { host: hostA, body: { webhook_id: reg.body.data.id } });
    expect(noType.body.errorMsg).toBe('event_type is required');
    expect(receiver.received).toHaveLength(0);
  });

  it('surface O: POST /webhooks/register with an empty or unknown Bearer token is 401 and registers nothing', async () => {
    const { hostA } = await aMarket(gw.em(), gw.clock.now());
    for (const [authorization, errorMsg] of [
      ['Bearer', 'missing bearer token'],
      ['Bearer not-a-token', 'invalid access token'],
    ]) {
      const res = await gw.api('POST', '/webhooks/register', {
        host: hostA,
        headers: { authorization },
        body: { event_type: 'order.accepted', endpoint_url: 'https://a.example/x' },
      });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ isError: true, errorMsg, data: {} });
    }
    expect((await gw.api('GET', '/webhooks', { host: hostA })).body.data).toEqual([]);
  });

  it("surface O: POST /webhooks/register with a valid Bearer token registers the webhook for the token's distributor", async () => {
    const { distributor, other, hostA, hostB } = await aMarket(gw.em(), gw.clock.now());
    const res = await gw.api('POST', '/webhooks/register', {
      headers: await bearerOf(gw, distributor),
      body: { event_type: 'token.transfer_completed', endpoint_url: 'https://127.0.0.1/hooks/o' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ event_type: 'token.transfer_completed', endpoint_url: 'https://127.0.0.1/hooks/o', createdBy: 'system' });
    expect(res.body.data.id).toMatch(/^wh_/);
    // the same distributor sees it on surface R; another does not
    expect((await gw.api('GET', '/webhooks', { host: hostA })).body.data.map((w: any) => w.id)).toEqual([res.body.data.id]);
    expect((await gw.api('GET', '/webhooks', { host: hostB })).body.data).toEqual([]);
    expect(other.id).not.toBe(distributor.id);
  });
});
