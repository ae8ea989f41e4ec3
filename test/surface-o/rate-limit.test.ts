import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { RateLimited } from '../../src/common/errors';
import { RateLimits } from '../../src/access/rate-limit';
import { runInScope } from '../../src/common/request-scope';
import { aCredential } from '../support/auth.factories';
import { aDistributor } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { subscribe } from '../support/subscriptions';

const LIMITS = { authPerKey: 3, authPerAddress: 5, opsFailuresPerAddress: 2, windowSeconds: 60 };

/** The documented refusal: 429 in the envelope, with Retry-After in seconds within the window. */
function expectRateLimited(res: { status: number; body: unknown; headers: Record<string, unknown> }) {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ isError: true, errorMsg: 'too many attempts, retry later', data: {} });
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

describe('rate limits of the token endpoints and ops tokens (in-process)', () => {
  let gw: TestGateway;
  beforeEach(async () => {
    // given a fresh gateway (fresh counters): 3 token requests per key, 5 per address, 2 wrong ops tokens
    gw = await startTestGateway({ config: { rateLimits: LIMITS } });
  });
  afterEach(() => gw.close());

  const token = (apiKey: string, apiSecret = 'sk_wrong', headers: Record<string, string> = {}) =>
    gw.api('POST', '/auth/token', { headers: { 'x-api-key': apiKey, 'x-api-secret': apiSecret, ...headers } });

  it('POST /auth/token: the fourth attempt on one key answers 429 with Retry-After, even with the right secret', async () => {
    const { apiKey, apiSecret } = await aCredential(gw, await aDistributor(gw.em()));
    for (let i = 0; i < 3; i++) expect((await token(apiKey)).status).toBe(401);
    expectRateLimited(await token(apiKey, apiSecret));
  });

  it('POST /auth/token: the sixth attempt from one address answers 429 whatever the key, and X-Forwarded-For does not reset it', async () => {
    for (let i = 0; i < 5; i++) expect((await token(`pk_guess${i}`)).status).toBe(401);
    expectRateLimited(await token('pk_another', 'sk_wrong', { 'x-forwarded-for': '203.0.113.9' }));
  });

  it('POST /auth/refresh counts per refresh token, and GraphQL issueAccessToken shares the counters', async () => {
    for (let i = 0; i < 3; i++) expect((await gw.api('POST', '/auth/refresh', { body: { refreshToken: 'rt_guess' } })).status).toBe(401);
    expectRateLimited(await gw.api('POST', '/auth/refresh', { body: { refreshToken: 'rt_guess' } }));
    // the address has spent 4 of 5: one more passes, then GraphQL is refused too
    expect((await token('pk_x')).status).toBe(401);
    const res = await gw.graphql('mutation { issueAccessToken(apiKey: "pk_y", apiSecret: "sk_y") { accessToken } }');
    expect(res.body.errors![0]).toMatchObject({
      message: 'too many attempts, retry later',
      extensions: { code: 'RATE_LIMITED', retryAfter: expect.any(Number) },
    });
  });

  it('wrong ops tokens: after two from one address, a third wrong one answers 429 RATE_LIMITED and its socket closes 4429, while a valid token still works on both', async () => {
    const valid = await gw.opsToken();
    for (let i = 0; i < 2; i++) expect((await gw.graphql('{ health { status } }', {}, { token: `ops_guess${i}` })).status).toBe(401);
    const res = await gw.graphql('{ health { status } }', {}, { token: 'ops_guess3' });
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(res.body.errors![0]).toMatchObject({ message: 'too many attempts, retry later', extensions: { code: 'RATE_LIMITED' } });
    await expect(subscribe(gw.port, 'subscription { orderUpdated { eventId } }', {}, 'ops_guess4')).rejects.toThrow('closed: 4429');
    // a token that verifies is never refused by the counter: the holder of a real token is not locked out
    const ok = await gw.graphql('{ opsTokenName }', {}, { token: valid });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ data: { opsTokenName: 'test-ops' } });
    const socket = await subscribe(gw.port, 'subscription { orderUpdated { eventId } }', {}, valid);
    await socket.close();
    // a distributor's access token is not an ops guess: REST surface O is unaffected
    expect((await gw.api('GET', '/assets/shareclass/all', { headers: { authorization: 'Bearer not-a-jwt' } })).status).toBe(401);
  });

  it('ten wrong ops tokens from an address do not lock out a valid one (default limit)', async () => {
    const fresh = await startTestGateway({ config: { rateLimits: { opsFailuresPerAddress: 10 } } });
    try {
      const valid = await fresh.opsToken();
      for (let i = 0; i < 10; i++) expect((await fresh.graphql('{ health { status } }', {}, { token: `ops_guess${i}` })).status).toBe(401);
      expect((await fresh.graphql('{ health { status } }', {}, { token: 'ops_guess10' })).status).toBe(429);
      expect((await fresh.graphql('{ opsTokenName }', {}, { token: valid })).body).toEqual({ data: { opsTokenName: 'test-ops' } });
    } finally {
      await fresh.close();
    }
  });

  it("graphql-ws: issueAccessToken over a socket counts against the connection's address, with HTTP's attempts", async () => {
    const ops = await gw.opsToken();
    // two attempts over HTTP from 127.0.0.1 …
    for (let i = 0; i < 2; i++) expect((await token(`pk_http${i}`)).status).toBe(401);
    // … and three over a socket from the same address spend the five
    const socket = await subscribe(gw.port, 'subscription { orderUpdated { eventId } }', {}, ops);
    const attempt = (key: string) =>
      new Promise<any>((resolve) => {
        let result: any;
        socket.client.subscribe(
          { query: `mutation { issueAccessToken(apiKey: "${key}", apiSecret: "sk_wrong") { accessToken } }` },
          { next: (m) => (result = m), error: (e) => resolve({ errors: e }), complete: () => resolve(result) },
        );
      });
    try {
      for (let i = 0; i < 3; i++) expect((await attempt(`pk_ws${i}`)).errors[0]).toMatchObject({ extensions: { code: 'UNAUTHENTICATED' } });
      const refused = await attempt('pk_ws_more');
      expect(refused.errors[0]).toMatchObject({
        message: 'too many attempts, retry later',
        extensions: { code: 'RATE_LIMITED', retryAfter: expect.any(Number) },
      });
      // and HTTP from the address is refused too
      expectRateLimited(await token('pk_after'));
    } finally {
      await socket.close();
    }
  });
});

describe('rate limits behind a trusted proxy (TRUST_PROXY=127.0.0.1)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ config: { rateLimits: LIMITS, trustProxy: ['127.0.0.1'] } });
  });
  afterAll(() => gw.close());

  it('counts the address the proxy forwarded, so one client behind it does not lock out the others', async () => {
    const from = (address: string, key: string) =>
      gw.api('POST', '/auth/token', { headers: { 'x-api-key': key, 'x-api-secret': 'sk_wrong', 'x-forwarded-for': address } });
    for (let i = 0; i < 5; i++) expect((await from('203.0.113.1', `pk_guess${i}`)).status).toBe(401);
    expectRateLimited(await from('203.0.113.1', 'pk_more'));
    expect((await from('203.0.113.2', 'pk_other')).status).toBe(401);
  });
});

/** Whether the Redis of this machine answers (REDIS_URL, else 127.0.0.1:6379). */
async function redisUrl(): Promise<string | null> {
  const url = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG' ? url : null;
  } catch {
    return null;
  } finally {
    probe.disconnect();
  }
}

describe('rate limits shared across instances through Redis', () => {
  let url: string;
  beforeAll(async () => {
    // Required, not optional: .ci/run starts a Redis when none answers.
    const found = await redisUrl();
    if (!found) throw new Error('no Redis answers at REDIS_URL or 127.0.0.1:6379: start one (redis-server --port 6379) or set REDIS_URL');
    url = found;
  });

  it('two instances count against the same limits', async () => {
    // given two gateways' counters on one Redis (a prefix of this run, so runs never meet)
    const prefix = `test-${randomUUID()}:`;
    const [a, b] = [RateLimits.create(LIMITS, url, prefix), RateLimits.create(LIMITS, url, prefix)];
    try {
      const from = (address: string, fn: () => Promise<void>) => runInScope({ clientAddress: address }, fn);
      // when the key is tried twice on one and once on the other
      await from('198.51.100.1', () => a.tokenAttempt('pk_shared'));
      await from('198.51.100.2', () => a.tokenAttempt('pk_shared'));
      await from('198.51.100.3', () => b.tokenAttempt('pk_shared'));
      // then the fourth attempt is refused wherever it lands
      await expect(from('198.51.100.4', () => b.tokenAttempt('pk_shared'))).rejects.toBeInstanceOf(RateLimited);
      await expect(from('198.51.100.5', () => a.tokenAttempt('pk_shared'))).rejects.toBeInstanceOf(RateLimited);
      // and ops-token failures of one address reach the other instance
      await from('198.51.100.9', () => a.opsAttemptFailed());
      await from('198.51.100.9', () => b.opsAttemptFailed());
      await expect(from('198.51.100.9', () => a.assertOpsAttemptAllowed())).rejects.toBeInstanceOf(RateLimited);
      await expect(from('198.51.100.8', () => b.assertOpsAttemptAllowed())).resolves.toBeUndefined();
    } finally {
      await a.close();
      await b.close();
    }
  });
});
