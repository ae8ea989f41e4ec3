import { aMarket } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aTwoStepOrder } from '../support/order.factories';

/**
 * A page on another site cannot drive /api/v1 through a victim's browser (docs/security.md):
 * a request carrying an `Origin` outside CORS_ALLOWED_ORIGINS, or a `Sec-Fetch-Site` other than
 * `same-origin`/`none`, is refused with 403 before any route runs; server backends send neither.
 */
describe('Cross-site requests under /api/v1', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ config: { corsAllowedOrigins: ['https://portal.dist-a.test'] } });
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  it('refuses a bodiless cross-site POST that would push or cancel an order, and the order is unchanged', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    const order = await aTwoStepOrder(gw, m);
    for (const headers of <Array<Record<string, string>>>[
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'null' },
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    ]) {
      for (const action of ['push', 'cancel']) {
        const res = await gw.api('POST', `/orders/subscriptions/${action}/${order.orderId}`, { host: m.hostA, headers });
        const expected = headers.origin
          ? `cross-site request refused: origin ${headers.origin} is not allowed`
          : `cross-site request refused: Sec-Fetch-Site ${headers['sec-fetch-site']}`;
        expect({ headers, action, status: res.status, body: res.body }).toEqual({
          headers,
          action,
          status: 403,
          body: { isError: true, errorMsg: expected, data: {} },
        });
      }
    }
    const after = await gw.api('GET', `/orders/${order.orderId}`, { host: m.hostA });
    expect(after.body.data.status).toBe(order.status);
  });

  it('refuses every route, surface O included', async () => {
    for (const [method, path] of [
      ['GET', '/funds/shareclass/all'],
      ['POST', '/auth/token'],
      ['GET', '/assets/shareclass/all'],
      ['GET', '/health'],
    ]) {
      const res = await gw.api(method, path, { host: 'dist-a.test', headers: { origin: 'https://evil.example' } });
      expect({ method, path, status: res.status, errorMsg: res.body.errorMsg }).toEqual({
        method,
        path,
        status: 403,
        errorMsg: 'cross-site request refused: origin https://evil.example is not allowed',
      });
    }
  });

  it('lets through server backends (no Origin, no Sec-Fetch-Site), first-party fetches, and the allowed origin with CORS headers', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    const order = await aTwoStepOrder(gw, m);
    // a backend's bodiless POST works
    expect((await gw.api('POST', `/orders/subscriptions/cancel/${order.orderId}`, { host: m.hostA })).status).toBe(200);
    expect((await gw.api('GET', '/funds/shareclass/all', { host: m.hostA, headers: { 'sec-fetch-site': 'same-origin' } })).status).toBe(200);
    expect((await gw.api('GET', '/funds/shareclass/all', { host: m.hostA, headers: { 'sec-fetch-site': 'none' } })).status).toBe(200);
    const allowed = await gw.api('GET', '/funds/shareclass/all', {
      host: m.hostA,
      headers: { origin: 'https://portal.dist-a.test', 'sec-fetch-site': 'cross-site' },
    });
    expect(allowed.status).toBe(200);
    expect(allowed.headers['access-control-allow-origin']).toBe('https://portal.dist-a.test');
  });

  it("GraphQL keeps Apollo's CSRF prevention: a simple cross-site POST (text/plain) and a GET without a preflight header are refused", async () => {
    const simple = await fetch(`http://127.0.0.1:${gw.port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', origin: 'https://evil.example' },
      body: JSON.stringify({ query: 'mutation { revokeApiCredential(apiKey: "x") }' }),
    });
    expect(simple.status).toBe(400);
    expect(((await simple.json()) as any).errors[0].message).toMatch(/Cross-Site Request Forgery/);
    const get = await fetch(`http://127.0.0.1:${gw.port}/graphql?query=${encodeURIComponent('{ health { status } }')}`);
    expect(get.status).toBe(400);
  });
});
