import { httpRequest } from '../support/http';
import { startTestGateway, type TestGateway } from '../support/gateway';

/**
 * What a gateway outside development answers (docs/security.md), whatever NODE_ENV says (jest
 * sets it to `test`, under which Apollo would print stack traces): no stack trace or file path
 * in any error, no landing page, no source maps, no sign-in link, closed metrics, a /ready that
 * says only ready or not, `no-store` and `nosniff` on every API answer, and 400 (never 500) for
 * an operation that cannot be resolved or a subscription over HTTP.
 */
const METRICS_TOKEN = 'metrics-token-0123456789';
const JWT = { signingKey: 'p'.repeat(40), issuer: 'fund-distribution-gateway', refreshTokenTtlSeconds: 3600 };

/** Anything that looks like a stack frame or a source location. */
const LEAK = /stacktrace|node_modules|\/work\/|\/src\/|\.[jt]s:\d+|\bat [\w.<>]+ \(/;

describe('Answers of a production gateway', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ config: { env: 'production', jwt: JWT, metricsToken: METRICS_TOKEN, rateLimits: { opsFailuresPerAddress: 1 } } });
  });
  afterAll(() => gw.close());

  const post = (body: unknown, headers: Record<string, string> = {}) => httpRequest(gw.port, 'POST', '/graphql', { body, headers });

  it('no stack trace or file path in validation, parse, CSRF, UNAUTHENTICATED and RATE_LIMITED errors, over GraphQL and REST', async () => {
    const answers = {
      validation: await post({ query: '{ nope }' }),
      parse: await post({ query: '{' }),
      csrf: await httpRequest(gw.port, 'GET', `/graphql?query=${encodeURIComponent('{ health { status } }')}`),
      badVariables: await post({ query: 'query ($n: Int) { health { status } }', variables: { n: 'x' } }),
      malformedJson: await httpRequest(gw.port, 'POST', '/graphql', { raw: '{"query":', headers: { 'content-type': 'application/json' } }),
      unauthenticated: await post({ query: '{ health { status } }' }, { authorization: 'Bearer ops_wrong' }),
      rateLimited: await post({ query: '{ health { status } }' }, { authorization: 'Bearer ops_wrong-again' }),
      opsOnly: await post({ query: '{ opsTokenName }' }),
      restMalformed: await httpRequest(gw.port, 'POST', '/api/v1/investor/register', { raw: '{"x":', headers: { 'content-type': 'application/json' } }),
      restUnknown: await httpRequest(gw.port, 'GET', '/api/v1/nowhere'),
      restBearer: await httpRequest(gw.port, 'GET', '/api/v1/assets/shareclass/all', { headers: { authorization: 'Bearer x' } }),
      elsewhere: await httpRequest(gw.port, 'GET', '/nowhere'),
    };
    expect(answers.unauthenticated.status).toBe(401);
    expect(answers.rateLimited.status).toBe(429);
    expect(answers.csrf.status).toBe(400);
    for (const [name, res] of Object.entries(answers)) {
      expect({ name, status: res.status < 500, leak: LEAK.exec(res.text)?.[0] ?? null }).toEqual({ name, status: true, leak: null });
    }
    // the GraphQL errors carry a message and a code, nothing else
    for (const name of ['validation', 'parse', 'csrf', 'unauthenticated', 'rateLimited'] as const) {
      for (const error of answers[name].body.errors) expect(Object.keys(error.extensions ?? {}).filter((k) => k !== 'code' && k !== 'retryAfter')).toEqual([]);
    }
  });

  it('an unknown operationName, several operations with none chosen, and a subscription over HTTP answer 400', async () => {
    const cases: Array<[unknown, string]> = [
      [{ query: 'query A { health { status } }', operationName: 'B' }, 'Unknown operation named "B".'],
      [{ query: 'query A { health { status } } query B { health { status } }' }, 'Must provide operation name if query contains multiple operations.'],
      [
        { query: 'subscription { orderUpdated { eventId } }' },
        'subscriptions are not served over HTTP: open a graphql-ws (graphql-transport-ws) socket on /graphql',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await post(body, { authorization: `Bearer ${await gw.opsToken()}` });
      expect({ body, status: res.status, errors: res.body.errors }).toEqual({
        body,
        status: 400,
        errors: [{ message, extensions: { code: expect.stringMatching(/^BAD_REQUEST$|^GRAPHQL_VALIDATION_FAILED$/) } }],
      });
    }
  });

  it('two anonymous operations are a validation error (400)', async () => {
    const res = await post({ query: '{ health { status } } { health { status } }' });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({
      message: 'This anonymous operation must be the only defined operation.',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
  });

  it('serves no Apollo landing page', async () => {
    const page = await httpRequest(gw.port, 'GET', '/graphql', { headers: { accept: 'text/html' } });
    expect(page.text).not.toMatch(/<html|<script|embeddable|apollographql\.com|sandbox/i);
  });

  it('puts Cache-Control: no-store and X-Content-Type-Options: nosniff on every API answer, errors included, and no ETag', async () => {
    const answers = [
      await httpRequest(gw.port, 'GET', '/api/v1/health'),
      await httpRequest(gw.port, 'GET', '/api/v1/nowhere'),
      await httpRequest(gw.port, 'GET', '/api/v1/funds/shareclass/all', { host: 'nobody.test' }),
      await httpRequest(gw.port, 'POST', '/api/v1/investor/register', { raw: '{', headers: { 'content-type': 'application/json' } }),
      await post({ query: '{ health { status } }' }),
      await post({ query: '{' }),
      await httpRequest(gw.port, 'POST', '/graphql', { raw: '{', headers: { 'content-type': 'application/json' } }),
    ];
    for (const res of answers) {
      expect([res.headers['cache-control'], res.headers['x-content-type-options']]).toEqual(['no-store', 'nosniff']);
      // Never revalidated, so never hashed for it.
      expect(res.headers.etag).toBeUndefined();
    }
  });

  it('refuses unbound surface-R hosts (HOST_BINDING_REQUIRED is always on)', async () => {
    await gw.reset();
    const { aMarket } = await import('../support/factories');
    const m = await aMarket(gw.em(), gw.clock.now());
    const res = await httpRequest(gw.port, 'GET', '/api/v1/funds/shareclass/all', { host: m.hostA });
    expect(res.status).toBe(403);
    expect(res.body.errorMsg).toBe(`host ${m.hostA} is not bound: bind it to source ranges or a client certificate (bindDistributorHost)`);
  });

  it('/metrics answers only to its token; /ready tells others only ready or not', async () => {
    expect((await httpRequest(gw.port, 'GET', '/metrics')).status).toBe(401);
    expect((await httpRequest(gw.port, 'GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).status).toBe(200);
    const ready = await httpRequest(gw.port, 'GET', '/ready');
    expect(ready.body).toEqual({ isError: false, errorMsg: 'NA', data: { status: 'ready' } });
    const detailed = await httpRequest(gw.port, 'GET', '/ready', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(detailed.body.data).toMatchObject({ status: 'ready', database: 'ok', migrations: { pending: 0 } });
  });

  it('many distinct operationNames do not grow /metrics: operations are labelled from the schema, never from client text', async () => {
    const scrape = async () => (await httpRequest(gw.port, 'GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text;
    await post({ query: 'query Warmup { health { status } }' });
    await post({ query: '{ nope }', operationName: 'Warmup' });
    const successes = (text: string) =>
      Number(/gateway_graphql_operation_duration_seconds_count\{operation="query health",outcome="success"\} (\d+)/.exec(text)?.[1]);
    const first = await scrape();
    const before = first.split('\n').filter((l) => l.startsWith('gateway_graphql_operation_duration_seconds')).length;
    for (let i = 0; i < 40; i++) {
      const name = `Evil${i}_${'x'.repeat(200)}`;
      await post({ query: `query ${name} { health { status } }`, operationName: name });
      await post({ query: `query ${name} { nope }`, operationName: name });
      await post({ query: `query A { health { status } }`, operationName: name });
    }
    const text = await scrape();
    expect(text).not.toContain('Evil');
    const after = text.split('\n').filter((l) => l.startsWith('gateway_graphql_operation_duration_seconds')).length;
    expect(after).toBe(before);
    // the forty named queries were counted, under the root field's label
    expect(successes(text) - successes(first)).toBe(40);
  });

  it("the console: no source maps, connect-src 'self', no sign-in link meta tag", async () => {
    const index = await httpRequest(gw.port, 'GET', '/console/');
    expect(index.status).toBe(200);
    expect(index.text).not.toContain('console-sign-in-link');
    expect(index.headers['content-security-policy']).toContain("connect-src 'self';");
    const script = /src="\/console\/(assets\/[^"]+\.js)"/.exec(index.text)![1];
    expect((await httpRequest(gw.port, 'GET', `/console/${script}`)).status).toBe(200);
    expect((await httpRequest(gw.port, 'GET', `/console/${script}.map`)).status).toBe(404);
  });
});

describe('Answers of a development gateway (the conveniences, for contrast)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ config: { env: 'development' } });
  });
  afterAll(() => gw.close());

  it("serves Apollo Sandbox, the console's source maps and sign-in link, and open metrics", async () => {
    const page = await httpRequest(gw.port, 'GET', '/graphql', { headers: { accept: 'text/html' } });
    expect(page.text).toMatch(/<html/i);
    const index = await httpRequest(gw.port, 'GET', '/console/');
    expect(index.text).toContain('<meta name="console-sign-in-link" content="on" />');
    const script = /src="\/console\/(assets\/[^"]+\.js)"/.exec(index.text)![1];
    expect((await httpRequest(gw.port, 'GET', `/console/${script}.map`)).status).toBe(200);
    expect((await httpRequest(gw.port, 'GET', '/metrics')).status).toBe(200);
  });
});
