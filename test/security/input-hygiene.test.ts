import { request } from 'node:http';
import { bearerOf } from '../support/auth.factories';
import { aMarket } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';

/*
 * Input hygiene at the edge (issue 10, "Bad input still finds 500s"): each case the issue lists
 * answers a 400 naming the field or the problem, in the envelope on REST and as a GraphQL error
 * on /graphql.
 */
describe('Input hygiene at the edge', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  const NOW = new Date(Date.UTC(2030, 0, 2, 12));
  async function market() {
    gw.clock.set(NOW);
    return aMarket(gw.em(), NOW);
  }
  const expect400 = (res: { status: number; body: any }, message: string | RegExp) => {
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ isError: true, errorMsg: typeof message === 'string' ? message : expect.stringMatching(message), data: {} });
  };

  describe('a NUL character in a string field or a path id', () => {
    it('POST /investor/register: 400 naming the field', async () => {
      const m = await market();
      const res = await gw.api('POST', '/investor/register', { host: m.hostA, body: { distributorId: m.distributor.id, externalInvestorId: 'crm\u00001' } });
      expect400(res, 'externalInvestorId must not contain control characters');
    });

    it('POST /orders/subscribe (two-step and one-step): 400 naming the field', async () => {
      const m = await market();
      const twoStep = await gw.api('POST', '/orders/subscribe', {
        host: m.hostA,
        body: { distributorId: m.distributor.id, investorId: m.investor.id, shareClassId: m.shareClass.id, amountSubscription: 100, externalRef: 'r\u0000' },
      });
      expect400(twoStep, 'externalRef must not contain control characters');
      const oneStep = await gw.api('POST', '/orders/subscribe', {
        host: m.hostA,
        body: { distributorId: m.distributor.id, investorId: `${m.investor.id}\u0000`, shareClassId: m.shareClass.id, amount: 100 },
      });
      expect400(oneStep, 'investorId must not contain control characters');
    });

    it('POST /webhooks/test: 400 naming the field', async () => {
      const m = await market();
      const res = await gw.api('POST', '/webhooks/test', { host: m.hostA, body: { event_type: 'order.accepted', webhook_id: 'wh_\u0000' } });
      expect400(res, 'webhook_id must not contain control characters');
    });

    it.each([
      ['GET', '/orders/subscriptions/investor/%00', 'investorId'],
      ['GET', '/orders/subscriptions/distributor/%00', 'distributorId'],
      ['POST', '/orders/subscriptions/push/%00', 'orderId'],
      ['POST', '/orders/subscriptions/cancel/%00', 'orderId'],
      ['POST', '/orders/cancel/%00', 'orderId'],
      ['GET', '/orders/%00', 'id'],
      ['GET', '/funds/shareclass/%00', 'shareClassId'],
    ])('%s %s: 400 naming the path parameter', async (method, path, field) => {
      const m = await market();
      const res = await gw.api(method, path, { host: m.hostA });
      expect400(res, `${field} must not contain control characters`);
    });

    it('a query parameter: 400 naming it', async () => {
      const m = await market();
      const res = await gw.api('GET', `/funds/shareclass/nav/live?shareClassId=${m.shareClass.id}%00`, { host: m.hostA });
      expect400(res, 'shareClassId must not contain control characters');
    });

    it('other control characters too (ESC in a nested body field on surface O)', async () => {
      const m = await market();
      const res = await gw.api('POST', '/user/register', {
        headers: await bearerOf(gw, m.distributor),
        body: { email: 'a@example.com', name: 'Ada\u001b[31m' },
      });
      expect400(res, 'name must not contain control characters');
    });

    it('tabs and line breaks in free text stay allowed', async () => {
      const m = await market();
      const res = await gw.api('POST', '/investor/register', {
        host: m.hostA,
        body: { distributorId: m.distributor.id, externalInvestorId: 'line one\nline\ttwo' },
      });
      expect(res.status).toBe(200);
    });
  });

  describe('out-of-range and oversize values', () => {
    it('nav/history with epochs beyond any date: 400 naming the field', async () => {
      const m = await market();
      const res = await gw.api('GET', `/funds/shareclass/nav/history?shareClassId=${m.shareClass.id}&startDate=9000000000000000&endDate=9000000000000001`, {
        host: m.hostA,
      });
      expect400(res, 'startDate must be epoch milliseconds from 0 to 253402300799999');
    });

    it('a string longer than the limit: 400 naming the field', async () => {
      const m = await market();
      const res = await gw.api('POST', '/investor/register', {
        host: m.hostA,
        body: { distributorId: m.distributor.id, externalInvestorId: 'x'.repeat(5000) },
      });
      expect400(res, 'externalInvestorId must be at most 4096 characters');
    });

    it('a number beyond the decimal columns: 400 naming the field', async () => {
      const m = await market();
      const res = await gw.api('POST', '/orders/subscribe', {
        host: m.hostA,
        raw: `{"distributorId":"${m.distributor.id}","investorId":"${m.investor.id}","shareClassId":"${m.shareClass.id}","amount":1e400}`,
      });
      expect400(res, 'amount is out of range');
    });

    it('a decimal string beyond the decimal columns: 400 naming the field', async () => {
      const m = await market();
      const res = await gw.api('POST', '/orders/subscribe', {
        host: m.hostA,
        body: { distributorId: m.distributor.id, investorId: m.investor.id, shareClassId: m.shareClass.id, amount: '1'.repeat(30) },
      });
      expect400(res, 'amount is out of range');
    });
  });

  describe('a body sent as anything but JSON', () => {
    it('a text/plain POST (a CSRF-able simple request) is 400 and writes nothing', async () => {
      const m = await market();
      const res = await gw.api('POST', '/investor/register', {
        host: m.hostA,
        headers: { 'content-type': 'text/plain' },
        raw: JSON.stringify({ distributorId: m.distributor.id, externalInvestorId: 'csrf' }),
      });
      expect400(res, 'request body must be sent as application/json');
    });

    it('a form POST is 400', async () => {
      const m = await market();
      const res = await gw.api('POST', '/investor/register', {
        host: m.hostA,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        raw: 'distributorId=x',
      });
      expect400(res, 'request body must be sent as application/json');
    });

    it('a body without a content type is 400', async () => {
      const m = await market();
      const res = await rawRequest(
        gw.port,
        'POST',
        '/api/v1/investor/register',
        m.hostA,
        null,
        JSON.stringify({ distributorId: m.distributor.id, externalInvestorId: 'x' }),
      );
      expect400(res, 'request body must be sent as application/json');
    });

    it('application/json with a charset is accepted', async () => {
      const m = await market();
      const res = await gw.api('POST', '/investor/register', {
        host: m.hostA,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: { distributorId: m.distributor.id, externalInvestorId: 'x' },
      });
      expect(res.status).toBe(200);
    });

    it('a POST without a body needs no content type (push, cancel)', async () => {
      const m = await market();
      const res = await rawRequest(gw.port, 'POST', '/api/v1/orders/subscriptions/cancel/OR999999', m.hostA, null, null);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ isError: true, errorMsg: 'order not found', data: {} });
    });
  });

  describe('e-mail addresses', () => {
    it('a 100 KB address on POST /user/register is refused by its length', async () => {
      const m = await market();
      const email = `a@${'b.'.repeat(50_000)} `;
      const res = await gw.api('POST', '/user/register', { headers: await bearerOf(gw, m.distributor), body: { email, name: 'Ada' } });
      expect400(res, 'email must be at most 4096 characters');
    });

    it.each(['no-at-sign', 'two@@example.com', 'a@b@example.com', 'sp ace@example.com', 'a@nodot', 'a@.example.com', 'a@example.', '@example.com'])(
      'POST /user/register refuses %j',
      async (email) => {
        const m = await market();
        const res = await gw.api('POST', '/user/register', { headers: await bearerOf(gw, m.distributor), body: { email, name: 'Ada' } });
        expect400(res, 'email must be a valid email address');
      },
    );

    it('POST /investor/register checks a given address the same way', async () => {
      const m = await market();
      const bad = await gw.api('POST', '/investor/register', {
        host: m.hostA,
        body: { distributorId: m.distributor.id, externalInvestorId: 'x', email: 'a@nodot' },
      });
      expect400(bad, 'email must be a valid email address');
      const good = await gw.api('POST', '/investor/register', {
        host: m.hostA,
        body: { distributorId: m.distributor.id, externalInvestorId: 'x', email: 'Ada.L+fund@Example.co.uk' },
      });
      expect(good.status).toBe(200);
    });
  });

  describe('GraphQL', () => {
    it('malformed JSON to /graphql is 400 with a GraphQL-shaped error', async () => {
      const res = await rawRequest(gw.port, 'POST', '/graphql', 'localhost', 'application/json', '{"query": "{ health { status } }"');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ errors: [{ message: 'malformed JSON body', extensions: { code: 'BAD_REQUEST' } }] });
    });

    it('a text/plain POST to /graphql is 400 (no cross-site simple request reaches an operation)', async () => {
      const res = await rawRequest(gw.port, 'POST', '/graphql', 'localhost', 'text/plain', JSON.stringify({ query: '{ health { status } }' }));
      expect(res.status).toBe(400);
      expect(res.body.data).toBeUndefined();
    });

    it('a NUL in a variable: BAD_USER_INPUT naming the argument', async () => {
      const token = await gw.opsToken();
      const res = await gw.graphql('query($id: ID!) { order(id: $id) { id } }', { id: 'OR\u0000' }, { token });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        expect.objectContaining({ message: 'id must not contain control characters', extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) }),
      ]);
    });

    it('a NUL in an inline argument: BAD_USER_INPUT naming the input field', async () => {
      const token = await gw.opsToken();
      const res = await gw.graphql('mutation { createIssuer(input: { name: "x\\u0000" }) { id } }', undefined, { token });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        expect.objectContaining({ message: 'name must not contain control characters', extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) }),
      ]);
    });

    it('an epoch beyond any date: BAD_USER_INPUT', async () => {
      const m = await market();
      const token = await gw.opsToken();
      const res = await gw.graphql(
        'query($sc: String!, $from: EpochMs) { navHistory(shareClassId: $sc, startDate: $from, endDate: $from) { close } }',
        { sc: m.shareClass.id, from: 9000000000000000 },
        { token },
      );
      expect(res.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(res.body.errors?.[0]?.message).toMatch(/epoch milliseconds from 0 to 253402300799999/);
    });
  });
});

/** A request with exactly the given content type (or none) and body (or none). */
function rawRequest(
  port: number,
  method: string,
  path: string,
  host: string,
  contentType: string | null,
  body: string | null,
): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { host };
  if (contentType) headers['content-type'] = contentType;
  if (body !== null) headers['content-length'] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, body: parsed });
      });
    });
    req.on('error', reject);
    if (body !== null) req.write(body);
    req.end();
  });
}
