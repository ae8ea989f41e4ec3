import { createGateway, type Gateway } from '../../src/app';
import { aMarket } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { httpRequest } from '../support/http';

describe('GraphQL principals and errors', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  it('a request without credentials gets no ops data: UNAUTHENTICATED in extensions.code, data null', async () => {
    await aMarket(gw.em(), gw.clock.now());
    for (const query of [
      '{ investors { items { id } } }',
      '{ distributors { items { id } } }',
      '{ issuers { items { id } } }',
      '{ shareClasses { id } }',
      '{ shareClass(id: "SC000001") { id } }',
      '{ liveNav(shareClassId: "SC000001") { close } }',
      'mutation { createIssuer(input: {name: "X"}) { id } }',
      'mutation { registerInvestor(input: {distributorId: "DT000001", externalInvestorId: "x"}) { id } }',
    ]) {
      const res = await gw.graphql(query);
      expect(res.body.data).toBeNull();
      expect(res.body.errors).toEqual([expect.objectContaining({ message: 'authentication required', extensions: { code: 'UNAUTHENTICATED' } })]);
    }
  });

  it('health needs no credentials', async () => {
    const res = await gw.graphql('{ health { status env } }');
    expect(res.body).toEqual({ data: { health: { status: 'ok', env: 'test' } } });
  });

  it('a bad or unknown bearer token is refused with HTTP 401 and UNAUTHENTICATED', async () => {
    for (const token of ['ops_not-a-real-token', 'garbage']) {
      const res = await gw.graphql('{ health { status } }', undefined, { token });
      expect(res.status).toBe(401);
      expect(res.body.errors![0].extensions.code).toBe('UNAUTHENTICATED');
      expect(res.body.errors![0].message).toMatch(/invalid or expired token/);
    }
  });

  it('a revoked ops token stops working', async () => {
    const token = await gw.opsToken();
    expect((await gw.graphql('{ issuers { items { id } } }', undefined, { token })).status).toBe(200);
    await gw.gateway.services.opsToken.revokeByName(gw.em(), 'test-ops');
    expect((await gw.graphql('{ issuers { items { id } } }', undefined, { token })).status).toBe(401);
  });

  it('domain errors carry their code in extensions.code: BAD_USER_INPUT, NOT_FOUND, CONFLICT', async () => {
    const token = await gw.opsToken();
    const bad = await gw.graphql('mutation { createDistributor(input: {name: ""}) { id } }', undefined, { token });
    expect(bad.body.errors![0]).toMatchObject({ message: 'name is required', extensions: { code: 'BAD_USER_INPUT' }, path: ['createDistributor'] });
    const missing = await gw.graphql('{ investor(id: "IN424242") { id } }', undefined, { token });
    expect(missing.body.errors![0]).toMatchObject({ message: 'investor not found: IN424242', extensions: { code: 'NOT_FOUND' } });
    const { distributor } = await aMarket(gw.em(), gw.clock.now());
    const taken = await gw.graphql(
      `mutation { addDistributorHost(input: {distributorId: "${distributor.id}", hostname: "dist-b.test"}) { hostname } }`,
      undefined,
      { token },
    );
    expect(taken.body.errors![0]).toMatchObject({ message: 'hostname dist-b.test is already mapped to a distributor', extensions: { code: 'CONFLICT' } });
  });

  describe('Apollo Sandbox', () => {
    async function landing(env: string): Promise<{ status: number; type: string; text: string }> {
      // Production refuses the development JWT key, so it gets one of its own.
      const jwt = { signingKey: 'p'.repeat(32), issuer: 'test', refreshTokenTtlSeconds: 3600 };
      const gateway: Gateway = await createGateway({ config: { env, bodyLimit: '100kb', jwt }, orm: gw.db.orm, clock: gw.clock });
      const port = await gateway.listen(0, '127.0.0.1');
      try {
        const res = await httpRequest(port, 'GET', '/graphql', { headers: { accept: 'text/html' } });
        return { status: res.status, type: String(res.headers['content-type']), text: res.text };
      } finally {
        await gateway.close();
      }
    }

    it('is served at GET /graphql to a browser in development', async () => {
      const res = await landing('development');
      expect(res.status).toBe(200);
      expect(res.type).toMatch(/text\/html/);
      expect(res.text).toMatch(/new window\.EmbeddedSandbox\(/);
    });

    it("is not served in production: no landing page at all (no script from Apollo's CDN on this origin)", async () => {
      const res = await landing('production');
      expect(res.text).not.toMatch(/new window\.EmbeddedSandbox\(/);
      expect(res.text).not.toMatch(/<html|<script|apollographql\.com/i);
      expect(res.type).toMatch(/application\/json/);
    });
  });
});
