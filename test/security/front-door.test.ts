import { connect } from 'node:net';
import { SURFACE_O } from '../../rest-compat/surface-o';
import { SURFACE_R } from '../../rest-compat/surface-r';
import type { RestRequest, RestRoute } from '../../rest-compat/route';
import { aMarket } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { httpRequest, type HttpResponse } from '../support/http';

/**
 * The REST facade is served ahead of express (rest-compat/door.ts). Whatever row a request
 * reaches, and however it spells its target, it crosses the steps every API answer crosses: its
 * `x-request-id`, the answer headers, an envelope of the declared length, and the metrics label
 * of its row; and what express still serves under the prefix (the OpenAPI documents) is still
 * served there. GraphQL over HTTP is served ahead of express too (src/app.ts), with the same
 * steps and Apollo's own refusals (CSRF prevention, methods, batches) and the body limit's.
 */
describe('The REST and GraphQL doors', () => {
  let gw: TestGateway;
  let host: string;
  beforeAll(async () => {
    gw = await startTestGateway();
    host = (await aMarket(gw.em(), gw.clock.now())).hostA;
  });
  afterAll(() => gw.close());

  function expectApiAnswer(res: HttpResponse, requestId: string): void {
    expect(res.status).toBeLessThan(500);
    expect(res.headers['x-request-id']).toBe(requestId);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
    expect(Object.keys(res.body as object)).toEqual(['isError', 'errorMsg', 'data']);
  }

  /** The row's path with every parameter filled in, and whether the row's own test (`when`) takes that request. */
  function requestFor(route: RestRoute): { path: string; matches: boolean } {
    const params: Record<string, string> = {};
    const path = route.path.replace(/:(\w+)/g, (_m, name: string) => (params[name] = 'X000001'));
    const req: RestRequest = { params, query: {}, body: {}, headers: {} };
    return { path, matches: !route.when || route.when(req) };
  }

  const rows = [...SURFACE_R.map((r) => ['R', r] as const), ...SURFACE_O.map((r) => ['O', r] as const)];

  it.each(rows.map(([surface, route], i) => [surface, route.method, route.path, i] as const))(
    'surface %s, %s %s: an API answer, labelled by its row in the metrics',
    async (surface, method, path, i) => {
      const route = rows[i][1];
      const sent = requestFor(route);
      const requestId = `door-${i}`;
      const headers: Record<string, string> = { 'x-request-id': requestId, ...(surface === 'O' && { authorization: 'Bearer not-a-token' }) };
      const res = await httpRequest(gw.port, method, `/api/v1${sent.path}`, { host, headers, ...(method === 'POST' && { body: {} }) });
      expectApiAnswer(res, requestId);
      if (!sent.matches) return;
      const metrics = await httpRequest(gw.port, 'GET', '/metrics');
      const label = `method="${method}",route="${path}",status="${res.status}"`;
      expect(metrics.text).toContain(`gateway_http_request_duration_seconds_count{${label}}`);
    },
  );

  it('takes the prefix as express mounted it: in any case, up to a slash or the end', async () => {
    for (const path of ['/api/v1/health', '/API/V1/health', '/Api/v1/health/']) {
      const res = await httpRequest(gw.port, 'GET', path, { host, headers: { 'x-request-id': 'case' } });
      expectApiAnswer(res, 'case');
      expect(res.status).toBe(200);
    }
    const prefixOnly = await httpRequest(gw.port, 'GET', '/api/v1', { host, headers: { 'x-request-id': 'bare' } });
    expectApiAnswer(prefixOnly, 'bare');
    expect(prefixOnly.body).toEqual({ isError: true, errorMsg: 'no route GET /', data: {} });
    const beside = await httpRequest(gw.port, 'GET', '/api/v1health', { host });
    expect(beside.status).toBe(404);
    expect(beside.body).toEqual({ isError: true, errorMsg: 'not found', data: {} });
  });

  it('serves a target in absolute form, as a proxy may send it, like its origin form', async () => {
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(gw.port, '127.0.0.1', () =>
        socket.write(`GET http://${host}/api/v1/health?x=1 HTTP/1.1\r\nHost: ${host}\r\nx-request-id: absolute\r\nConnection: close\r\n\r\n`),
      );
      let received = '';
      socket.on('data', (c: Buffer) => (received += c.toString('utf8')));
      socket.on('end', () => resolve(received));
      socket.on('error', reject);
    });
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(text).toMatch(/\r\nx-request-id: absolute\r\n/i);
    expect(text).toMatch(/\r\ncache-control: no-store\r\n/i);
    expect(text).toContain('"isError":false');
  });

  it('leaves the OpenAPI documents to express, with the answer headers, and only their reads', async () => {
    for (const path of ['/api/v1/openapi-r.json', '/api/v1/openapi-o.json', '/API/v1/OpenAPI-R.json/']) {
      const res = await httpRequest(gw.port, 'GET', path, { headers: { 'x-request-id': 'doc' } });
      expect(res.status).toBe(200);
      expect(res.headers['x-request-id']).toBe('doc');
      expect(res.headers['cache-control']).toBe('no-store');
      expect((res.body as { openapi: string }).openapi).toMatch(/^3\./);
    }
    const post = await httpRequest(gw.port, 'POST', '/api/v1/openapi-r.json', { body: {} });
    expect(post.status).toBe(404);
    expect(post.body).toEqual({ isError: true, errorMsg: 'no route POST /openapi-r.json', data: {} });
  });

  it('refuses a cross-site request to the OpenAPI documents as to any route', async () => {
    for (const path of ['/api/v1/openapi-r.json', '/api/v1/health']) {
      const res = await httpRequest(gw.port, 'GET', path, { host, headers: { origin: 'https://evil.example' } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ isError: true, errorMsg: 'cross-site request refused: origin https://evil.example is not allowed', data: {} });
    }
  });

  describe('GraphQL', () => {
    const HEALTH = JSON.stringify({ query: '{ health { status } }' });

    function expectGraphqlAnswer(res: HttpResponse, requestId: string, status: number): void {
      expect(res.status).toBe(status);
      expect(res.headers['x-request-id']).toBe(requestId);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
    }

    it('takes /graphql as express mounted it (any case, up to a slash or the end), labelled /graphql in the metrics', async () => {
      for (const path of ['/graphql', '/GraphQL', '/graphql/']) {
        const res = await httpRequest(gw.port, 'POST', path, { raw: HEALTH, headers: { 'x-request-id': 'gql' } });
        expectGraphqlAnswer(res, 'gql', 200);
        expect(res.body).toEqual({ data: { health: { status: 'ok' } } });
      }
      const metrics = await httpRequest(gw.port, 'GET', '/metrics');
      expect(metrics.text).toContain('gateway_http_request_duration_seconds_count{method="POST",route="/graphql",status="200"}');
      const beside = await httpRequest(gw.port, 'POST', '/graphqlx', { raw: HEALTH });
      expect(beside.status).toBe(404);
      expect(beside.body).toEqual({ isError: true, errorMsg: 'not found', data: {} });
    });

    it('refuses a simple cross-site request (CSRF prevention): a text/plain or form POST, a GET without a preflight header', async () => {
      const refusals = [
        await httpRequest(gw.port, 'POST', '/graphql', { raw: HEALTH, headers: { 'content-type': 'text/plain', 'x-request-id': 'csrf' } }),
        await httpRequest(gw.port, 'POST', '/graphql', {
          raw: 'query=x',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-request-id': 'csrf' },
        }),
        await httpRequest(gw.port, 'GET', `/graphql?query=${encodeURIComponent('{ health { status } }')}`, { headers: { 'x-request-id': 'csrf' } }),
      ];
      for (const res of refusals) {
        expectGraphqlAnswer(res, 'csrf', 400);
        expect(res.body.data).toBeUndefined();
        expect(res.body.errors[0].message).toMatch(/^This operation has been blocked as a potential Cross-Site Request Forgery \(CSRF\)/);
        expect(res.body.errors[0].extensions.code).toBe('BAD_REQUEST');
      }
    });

    it('answers a GET query that says it is not a simple request; a GET mutation is 405 with Allow: POST', async () => {
      const query = (q: string) => `/graphql?query=${encodeURIComponent(q)}`;
      const res = await httpRequest(gw.port, 'GET', query('{ health { status } }'), { headers: { 'apollo-require-preflight': 'true', 'x-request-id': 'get' } });
      expectGraphqlAnswer(res, 'get', 200);
      expect(res.body).toEqual({ data: { health: { status: 'ok' } } });
      const mutation = await httpRequest(gw.port, 'GET', query('mutation { issueAccessToken { accessToken } }'), {
        headers: { 'content-type': 'application/json', 'x-request-id': 'get' },
      });
      expectGraphqlAnswer(mutation, 'get', 405);
      expect(mutation.headers.allow).toBe('POST');
      expect(mutation.body.data).toBeUndefined();
    });

    it('a body over the body limit is 413 as a GraphQL error; an invalid JSON body and a batch are 400', async () => {
      // the test gateway's body limit is 100 kB
      const big = JSON.stringify({ query: '{ health { status } }', variables: { pad: 'x'.repeat(101 * 1024) } });
      const tooLarge = await httpRequest(gw.port, 'POST', '/graphql', { raw: big, headers: { 'x-request-id': 'big' } });
      expectGraphqlAnswer(tooLarge, 'big', 413);
      expect(tooLarge.body).toEqual({ errors: [{ message: 'request body too large', extensions: { code: 'PAYLOAD_TOO_LARGE' } }] });
      const invalid = await httpRequest(gw.port, 'POST', '/graphql', { raw: '{"query":', headers: { 'x-request-id': 'bad' } });
      expectGraphqlAnswer(invalid, 'bad', 400);
      expect(invalid.body).toEqual({ errors: [{ message: 'malformed JSON body', extensions: { code: 'BAD_REQUEST' } }] });
      const batch = await httpRequest(gw.port, 'POST', '/graphql', { raw: `[${HEALTH},${HEALTH}]`, headers: { 'x-request-id': 'batch' } });
      expectGraphqlAnswer(batch, 'batch', 400);
      expect(batch.body.errors[0].message).toBe('Operation batching disabled.');
      expect(batch.body.errors[0].extensions.code).toBe('BAD_REQUEST');
    });
  });
});
