import { createGateway } from '../../src/app';
import { ManualClock } from '../../src/common/clock';
import { ConfigError, loadConfig } from '../../src/config';
import { aMarket } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { openTestDatabase } from '../support/database';
import { httpRequest } from '../support/http';

/** x-request-id, /ready and /metrics (docs/operations.md, "Monitoring"). */
describe('Operations', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  it('echoes x-request-id on every response, and generates one when absent', async () => {
    const sent = await gw.api('GET', '/health', { headers: { 'x-request-id': 'req-abc-123' } });
    expect(sent.headers['x-request-id']).toBe('req-abc-123');
    const generated = await gw.api('GET', '/health');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const graphql = await gw.graphql('{ health { status } }', {}, { headers: { 'x-request-id': 'gql-1' } });
    expect(graphql.headers['x-request-id']).toBe('gql-1');
    for (const path of ['/ready', '/metrics', '/nowhere']) expect((await httpRequest(gw.port, 'GET', path)).headers['x-request-id']).toBeTruthy();
    // a malformed id is replaced, never echoed
    const bad = await gw.api('GET', '/health', { headers: { 'x-request-id': 'a b<script>' } });
    expect(bad.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("/ready checks the database and the migrations, apart from /api/v1/health; only the metrics token's holder learns the details", async () => {
    const res = await httpRequest(gw.port, 'GET', '/ready');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ isError: false, errorMsg: 'NA', data: { status: 'ready' } });
    const clock = new ManualClock();
    const db = await openTestDatabase(clock, 2);
    const token = 'metrics-token-0123456789';
    const gateway = await createGateway({ config: { env: 'test', bodyLimit: '100kb', metricsToken: token }, orm: db.orm, clock, background: false });
    const port = await gateway.listen(0, '127.0.0.1');
    try {
      const detailed = await httpRequest(port, 'GET', '/ready', { headers: { authorization: `Bearer ${token}` } });
      expect(detailed.body).toMatchObject({ isError: false, errorMsg: 'NA', data: { status: 'ready', database: 'ok', migrations: { pending: 0 } } });
      expect(detailed.body.data.migrations.applied).toBeGreaterThanOrEqual(6);
      expect((await httpRequest(port, 'GET', '/ready', { headers: { authorization: 'Bearer wrong-token-0123456789' } })).body.data).toEqual({
        status: 'ready',
      });
    } finally {
      await gateway.close();
      await db.close();
    }
  });

  it('/ready answers 503 when the database is gone, while /api/v1/health still answers ok', async () => {
    const clock = new ManualClock();
    const db = await openTestDatabase(clock, 2);
    const gateway = await createGateway({ config: { env: 'test', bodyLimit: '100kb' }, orm: db.orm, clock, background: false });
    const port = await gateway.listen(0, '127.0.0.1');
    try {
      await db.orm.close(true);
      const ready = await httpRequest(port, 'GET', '/ready');
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ isError: true, errorMsg: 'not ready', data: {} });
      const health = await httpRequest(port, 'GET', '/api/v1/health');
      expect(health.status).toBe(200);
    } finally {
      await gateway.close();
      await db.close().catch(() => undefined);
    }
  });

  it('/metrics exposes request durations per route row and GraphQL operation, status counts, pool use, relay lag, deliveries and subscriptions', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    await gw.api('GET', `/funds/shareclass/${m.shareClass.id}`, { host: m.hostA });
    await gw.api('GET', '/orders/ord_missing', { host: m.hostA });
    await gw.graphql('query HealthProbe { opsTokenName }', {}, { token: await gw.opsToken() });
    const res = await httpRequest(gw.port, 'GET', '/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const text = res.text;
    expect(text).toMatch(/gateway_http_request_duration_seconds_count\{method="GET",route="\/funds\/shareclass\/:shareClassId",status="200"\} 1/);
    expect(text).toMatch(/gateway_http_request_duration_seconds_count\{method="GET",route="\/orders\/:id",status="404"\} 1/);
    expect(text).toMatch(/gateway_http_responses_total\{status="404"\} [1-9]/);
    expect(text).toMatch(/gateway_graphql_operation_duration_seconds_count\{operation="query opsTokenName",outcome="success"\} 1/);
    // labelled by the schema's root field, never by the client's operationName
    expect(text).not.toContain('HealthProbe');
    expect(text).toMatch(/gateway_db_pool_connections\{state="max"\} \d+/);
    expect(text).toMatch(/gateway_event_relay_lag_seconds \d/);
    expect(text).toMatch(/gateway_webhook_deliveries_pending 0/);
    expect(text).toContain('# TYPE gateway_webhook_deliveries_total counter');
    expect(text).toContain('# TYPE gateway_webhook_delivery_duration_seconds histogram');
    expect(text).toMatch(/gateway_graphql_subscriptions_open 0/);
  });

  it('/metrics requires the token when METRICS_TOKEN is set', async () => {
    const clock = new ManualClock();
    const db = await openTestDatabase(clock, 2);
    const token = 'metrics-token-0123456789';
    const gateway = await createGateway({ config: { env: 'test', bodyLimit: '100kb', metricsToken: token }, orm: db.orm, clock, background: false });
    const port = await gateway.listen(0, '127.0.0.1');
    try {
      expect((await httpRequest(port, 'GET', '/metrics')).status).toBe(401);
      expect((await httpRequest(port, 'GET', '/metrics', { headers: { authorization: 'Bearer wrong-token-0123456789' } })).body).toEqual({
        isError: true,
        errorMsg: 'metrics token required',
        data: {},
      });
      const ok = await httpRequest(port, 'GET', '/metrics', { headers: { authorization: `Bearer ${token}` } });
      expect(ok.status).toBe(200);
      expect(ok.text).toContain('gateway_http_responses_total');
    } finally {
      await gateway.close();
      await db.close();
    }
  });

  it('METRICS_TOKEN is validated with the rest of the configuration', () => {
    expect(loadConfig({ APP_ENV: 'development', METRICS_TOKEN: 'metrics-token-0123456789' }).metricsToken).toBe('metrics-token-0123456789');
    expect(loadConfig({ APP_ENV: 'development' }).metricsToken).toBeNull();
    // fail closed: outside development and test the gateway does not start without it
    expect(() => loadConfig({ APP_ENV: 'production', JWT_SIGNING_KEY: 'k'.repeat(32), WEBHOOK_SECRET_KEY: Buffer.alloc(32, 7).toString('base64') })).toThrow(
      'METRICS_TOKEN is required when APP_ENV is production',
    );
    expect(() => loadConfig({ APP_ENV: 'development', METRICS_TOKEN: 'short' })).toThrow(ConfigError);
    expect(() => loadConfig({ APP_ENV: 'development', METRICS_TOKEN: 'short' })).toThrow('METRICS_TOKEN must be at least 16 characters without spaces');
  });
});
