import { aMarket } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';

/**
 * TRUST_PROXY names the proxies (addresses or CIDRs): `X-Forwarded-For` is believed from them
 * only. A stranger who reaches the port directly cannot choose its address: not for a host bound
 * to source ranges, not for the ops-token rate limit (graphql-ws reads the address
 * through the same compiled trust, express's `trust proxy fn`). Here the gateway's
 * proxy is 10.0.0.1 and the test client (127.0.0.1) is the stranger.
 */
const BIND = `mutation ($input: BindDistributorHostInput!) { bindDistributorHost(input: $input) { sourceRanges } }`;

describe('a stranger behind no trusted proxy (TRUST_PROXY=10.0.0.1)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ config: { hostBindingRequired: true, trustProxy: ['10.0.0.1'], rateLimits: { opsFailuresPerAddress: 3 } } });
  });
  afterAll(() => gw.close());

  it('is not admitted to a host bound to 10.9.0.0/16 by sending X-Forwarded-For: 10.9.1.1', async () => {
    // given a host bound to the proxy's clients' range
    const m = await aMarket(gw.em(), gw.clock.now());
    const bound = await gw.graphql(BIND, { input: { hostname: m.hostA, sourceRanges: ['10.9.0.0/16'] } }, { token: await gw.opsToken() });
    expect(bound.body).toEqual({ data: { bindDistributorHost: { sourceRanges: ['10.9.0.0/16'] } } });
    // when the stranger claims an address inside it
    const res = await gw.api('GET', '/funds/shareclass/all', { host: m.hostA, headers: { 'x-forwarded-for': '10.9.1.1' } });
    // then its own address (127.0.0.1) is what counts
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ isError: true, errorMsg: `host ${m.hostA} does not accept requests from this address`, data: {} });
  });

  it('trips the ops-token rate limit though each guess carries a new X-Forwarded-For, over HTTP', async () => {
    for (let i = 0; i < 3; i++) {
      const guess = await gw.graphql('{ health { status } }', {}, { token: `ops_guess${i}`, headers: { 'x-forwarded-for': `198.51.100.${i + 1}` } });
      expect(guess.status).toBe(401);
    }
    const fourth = await gw.graphql('{ health { status } }', {}, { token: 'ops_guess4', headers: { 'x-forwarded-for': '198.51.100.99' } });
    expect(fourth.status).toBe(429);
    expect(fourth.body.errors![0]).toMatchObject({ message: 'too many attempts, retry later', extensions: { code: 'RATE_LIMITED' } });
  });
});
