import { request as httpsRequest } from 'node:https';
import { generate } from 'selfsigned';
import { aMarket } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { makeCertificates, type TestCertificates } from '../support/webhook-receiver';

/**
 * Surface R's credential (docs/security.md): the tenant comes from `Host` alone, and a host can
 * be bound to source ranges and a client certificate; where HOST_BINDING_REQUIRED is on (always
 * outside development and test) an unbound host is refused.
 */
const BIND = `mutation ($input: BindDistributorHostInput!) { bindDistributorHost(input: $input) { hostname sourceRanges clientCertSha256 } }`;

describe('Surface R: the tenant comes from Host alone', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    // given a gateway that believes X-Forwarded-* from loopback peers (its test client)
    gw = await startTestGateway({ config: { trustProxy: ['127.0.0.1'] } });
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  it('X-Forwarded-Host never picks the distributor, even from a trusted proxy', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    // when a client on host A claims host B through X-Forwarded-Host
    const asB = await gw.api('POST', '/investor/register', {
      host: m.hostA,
      headers: { 'x-forwarded-host': m.hostB },
      body: { distributorId: m.other.id, externalInvestorId: 'xfh' },
    });
    // then it is A, and B's id is refused like any other distributor's
    expect(asB.status).toBe(404);
    expect(asB.body).toEqual({ isError: true, errorMsg: `distributorId not found: ${m.other.id}`, data: {} });
    const asA = await gw.api('POST', '/investor/register', {
      host: m.hostA,
      headers: { 'x-forwarded-host': m.hostB },
      body: { distributorId: m.distributor.id, externalInvestorId: 'xfh' },
    });
    expect(asA.status).toBe(200);
    // an unmapped Host with a mapped X-Forwarded-Host is refused
    const unmapped = await gw.api('GET', '/funds/shareclass/all', { host: 'nobody.test', headers: { 'x-forwarded-host': m.hostA } });
    expect(unmapped.status).toBe(403);
    expect(unmapped.body).toEqual({ isError: true, errorMsg: 'host nobody.test is not provisioned for any distributor', data: {} });
  });

  it('reads Host without its port, in lower case, without a trailing dot', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    for (const host of [`${m.hostA}:8443`, m.hostA.toUpperCase(), `${m.hostA}.`]) {
      const res = await gw.api('GET', '/funds/shareclass/all', { host });
      expect({ host, status: res.status }).toEqual({ host, status: 200 });
    }
  });
});

describe('Surface R: host bindings (HOST_BINDING_REQUIRED on)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    // given the production rule: unbound hosts refused; client addresses forwarded by loopback proxies
    gw = await startTestGateway({ config: { hostBindingRequired: true, trustProxy: ['127.0.0.1'] } });
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  const from = (address: string, host: string) => gw.api('GET', '/funds/shareclass/all', { host, headers: { 'x-forwarded-for': address } });

  it('refuses an unbound host with 403 naming the missing binding', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    const res = await from('203.0.113.7', m.hostA);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      isError: true,
      errorMsg: `host ${m.hostA} is not bound: bind it to source ranges or a client certificate (bindDistributorHost)`,
      data: {},
    });
  });

  it('a host bound to source ranges admits the client addresses in them only (as TRUST_PROXY resolves them)', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    const bound = await gw.graphql(BIND, { input: { hostname: m.hostA, sourceRanges: ['203.0.113.0/24', '2001:db8::/32'] } }, { token: await gw.opsToken() });
    expect(bound.body).toEqual({
      data: { bindDistributorHost: { hostname: m.hostA, sourceRanges: ['203.0.113.0/24', '2001:db8::/32'], clientCertSha256: null } },
    });
    expect((await from('203.0.113.7', m.hostA)).status).toBe(200);
    expect((await from('2001:db8::5', m.hostA)).status).toBe(200);
    expect((await from('::ffff:203.0.113.8', m.hostA)).status).toBe(200);
    for (const outside of ['198.51.100.1', '203.0.114.1', '2001:db9::1']) {
      const res = await from(outside, m.hostA);
      expect({ outside, status: res.status, body: res.body }).toEqual({
        outside,
        status: 403,
        body: { isError: true, errorMsg: `host ${m.hostA} does not accept requests from this address`, data: {} },
      });
    }
    // B's host is still unbound
    expect((await from('203.0.113.7', m.hostB)).status).toBe(403);
    // the distributor's host list shows the binding
    const hosts = await gw.graphql(
      `query ($id: ID!) { distributor(id: $id) { hosts { hostname sourceRanges clientCertSha256 } } }`,
      { id: m.distributor.id },
      { token: await gw.opsToken() },
    );
    expect(hosts.body.data.distributor.hosts).toEqual([{ hostname: m.hostA, sourceRanges: ['203.0.113.0/24', '2001:db8::/32'], clientCertSha256: null }]);
    // unbinding (both empty) refuses again at once
    await gw.graphql(BIND, { input: { hostname: m.hostA, sourceRanges: [], clientCertSha256: null } }, { token: await gw.opsToken() });
    expect((await from('203.0.113.7', m.hostA)).status).toBe(403);
  });

  it('addDistributorHost binds at once; bindings are validated', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    const ops = await gw.opsToken();
    const add = await gw.graphql(
      `mutation ($input: DistributorHostInput!) { addDistributorHost(input: $input) { hostname sourceRanges clientCertSha256 } }`,
      { input: { distributorId: m.distributor.id, hostname: 'API.Dist-A.test', sourceRanges: ['198.51.100.0/24'], clientCertSha256: 'AB:'.repeat(31) + 'AB' } },
      { token: ops },
    );
    expect(add.body).toEqual({
      data: { addDistributorHost: { hostname: 'api.dist-a.test', sourceRanges: ['198.51.100.0/24'], clientCertSha256: 'ab'.repeat(32) } },
    });
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ sourceRanges: ['0.0.0.0/0'] }, 'sourceRanges must not cover every address'],
      [{ sourceRanges: ['0.0.0.0/1', '128.0.0.0/1'] }, 'sourceRanges must not cover every address'],
      [{ sourceRanges: ['::/0'] }, 'sourceRanges must not cover every address'],
      [{ sourceRanges: ['10.0.0.0/33'] }, 'sourceRanges entry "10.0.0.0/33" must be an IP address or CIDR range'],
      [{ sourceRanges: ['example.com'] }, 'sourceRanges entry "example.com" must be an IP address or CIDR range'],
      [{ clientCertSha256: 'abc' }, 'clientCertSha256 must be a SHA-256 fingerprint: 64 hex digits, colons allowed'],
    ];
    for (const [binding, message] of refusals) {
      const res = await gw.graphql(BIND, { input: { hostname: m.hostA, ...binding } }, { token: ops });
      expect({ binding, error: res.body.errors?.[0] }).toEqual({
        binding,
        error: expect.objectContaining({ message, extensions: { code: 'BAD_USER_INPUT' } }),
      });
    }
    const missing = await gw.graphql(BIND, { input: { hostname: 'nobody.test', sourceRanges: ['198.51.100.0/24'] } }, { token: ops });
    expect(missing.body.errors![0]).toMatchObject({ message: 'hostname nobody.test is not mapped', extensions: { code: 'NOT_FOUND' } });
  });
});

describe("Surface R: a host bound to a client certificate, over the gateway's own TLS", () => {
  let certs: TestCertificates;
  let gw: TestGateway;
  let stranger: { key: string; cert: string };
  beforeAll(async () => {
    certs = await makeCertificates();
    const self = await generate([{ name: 'commonName', value: 'stranger' }], { keySize: 2048, algorithm: 'sha256', days: 2 } as never);
    stranger = { key: self.private, cert: self.cert };
    // given TLS_CERT_FILE/TLS_KEY_FILE/TLS_CLIENT_CA_FILE: client certificates requested, not required
    gw = await startTestGateway({ config: { hostBindingRequired: true, tls: { cert: certs.cert, key: certs.key, clientCa: certs.caCert } } });
  });
  afterAll(async () => {
    await gw.close();
    certs.cleanup();
  });

  const overTls = (host: string, client?: { key: string; cert: string }) =>
    new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = httpsRequest(
        {
          host: '127.0.0.1',
          port: gw.port,
          path: '/api/v1/funds/shareclass/all',
          method: 'GET',
          headers: { host },
          ca: certs.caCert,
          servername: 'localhost',
          ...client,
        },
        (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        },
      );
      req.on('error', reject);
      req.end();
    });

  const bindOverTls = (ops: string, input: Record<string, unknown>) =>
    new Promise<any>((resolve, reject) => {
      const body = JSON.stringify({ query: BIND, variables: { input } });
      const req = httpsRequest(
        {
          host: '127.0.0.1',
          port: gw.port,
          path: '/graphql',
          method: 'POST',
          ca: certs.caCert,
          servername: 'localhost',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${ops}` },
        },
        (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve(JSON.parse(text)));
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  it("admits the certificate whose fingerprint the host names, and refuses none, a stranger's, or another CA-signed one", async () => {
    await gw.reset();
    const m = await aMarket(gw.em(), gw.clock.now());
    const ops = await gw.opsToken();
    // GraphQL works without a client certificate (requested, not required)
    const bound = await bindOverTls(ops, { hostname: m.hostA, clientCertSha256: certs.client.sha256 });
    expect(bound).toEqual({ data: { bindDistributorHost: { hostname: m.hostA, sourceRanges: [], clientCertSha256: certs.client.sha256 } } });
    expect((await overTls(m.hostA, certs.client)).status).toBe(200);
    expect(await overTls(m.hostA)).toEqual({ status: 403, body: { isError: true, errorMsg: `host ${m.hostA} requires a client certificate`, data: {} } });
    // a self-signed certificate is not verified by the client CA: as good as none
    expect(await overTls(m.hostA, stranger)).toEqual({
      status: 403,
      body: { isError: true, errorMsg: `host ${m.hostA} requires a client certificate`, data: {} },
    });
    // B's host, bound to another fingerprint, refuses A's CA-signed certificate
    await bindOverTls(ops, { hostname: m.hostB, clientCertSha256: 'cd'.repeat(32) });
    expect(await overTls(m.hostB, certs.client)).toEqual({
      status: 403,
      body: { isError: true, errorMsg: `host ${m.hostB} does not accept this client certificate`, data: {} },
    });
    // both bindings at once: both must hold
    await bindOverTls(ops, { hostname: m.hostA, clientCertSha256: certs.client.sha256, sourceRanges: ['198.51.100.0/24'] });
    expect(await overTls(m.hostA, certs.client)).toEqual({
      status: 403,
      body: { isError: true, errorMsg: `host ${m.hostA} does not accept requests from this address`, data: {} },
    });
  });
});
