import { decodeJwt, decodeProtectedHeader } from 'jose';
import { ApiCredential } from '../../src/modules/auth/api-credential.entity';
import { aCredential, aTokenPair } from '../support/auth.factories';
import { aMarket } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';

const T0 = new Date(Date.UTC(2031, 4, 6, 9, 0, 0));
const unauthorized = (errorMsg: string) => ({ isError: true, errorMsg, data: {} });

describe('Surface O authentication: key and secret, access and refresh tokens', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());
  beforeEach(async () => {
    await gw.reset();
    gw.clock.set(T0);
  });

  const market = () => aMarket(gw.em(), gw.clock.now());
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const listFunds = (headers: Record<string, string> = {}) => gw.api('GET', '/assets/shareclass/all', { headers });
  const token = (apiKey?: string, apiSecret?: string) =>
    gw.api('POST', '/auth/token', {
      headers: { ...(apiKey !== undefined ? { 'x-api-key': apiKey } : {}), ...(apiSecret !== undefined ? { 'x-api-secret': apiSecret } : {}) },
    });
  const refresh = (refreshToken: unknown) => gw.api('POST', '/auth/refresh', { body: { refreshToken } });

  describe('issuing credentials (ops)', () => {
    it('ops issue a key and secret through GraphQL; the secret is shown once and stored only as a salted scrypt hash', async () => {
      const { distributor } = await market();
      const res = await gw.graphql(
        `mutation($d: String!) { issueApiCredential(distributorId: $d) { apiKey apiSecret distributorId partnerId } }`,
        { d: distributor.id },
        { token: await gw.opsToken() },
      );
      const issued = res.body.data.issueApiCredential;
      expect(issued).toEqual({
        apiKey: expect.stringMatching(/^pk_[0-9a-f]{32}$/),
        apiSecret: expect.stringMatching(/^sk_/),
        distributorId: distributor.id,
        partnerId: distributor.id.replace('DT', 'PT'),
      });
      const row = await gw.em().findOneOrFail(ApiCredential, { apiKey: issued.apiKey });
      expect(row.secretHash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
      expect(row.secretHash).not.toContain(issued.apiSecret);
      // the list shows keys, never secrets
      const list = await gw.graphql(
        `query($d: String!) { apiCredentials(distributorId: $d) { apiKey revokedAt } }`,
        { d: distributor.id },
        { token: await gw.opsToken() },
      );
      expect(list.body.data.apiCredentials).toEqual([{ apiKey: issued.apiKey, revokedAt: null }]);
    });

    it('two credentials issued with the same secret space never share a hash (salted)', async () => {
      const { distributor } = await market();
      const a = await aCredential(gw, distributor);
      const b = await aCredential(gw, distributor);
      const rows = await gw.em().find(ApiCredential, { apiKey: { $in: [a.apiKey, b.apiKey] } });
      expect(new Set(rows.map((r) => r.secretHash.split('$')[4])).size).toBe(2);
    });

    it('only ops may issue, rotate or revoke credentials: a distributor token is refused', async () => {
      const { distributor } = await market();
      const { accessToken, apiKey } = await aTokenPair(gw, distributor);
      for (const op of [
        `issueApiCredential(distributorId: "${distributor.id}") { apiKey }`,
        `rotateApiCredential(apiKey: "${apiKey}") { apiKey }`,
        `revokeApiCredential(apiKey: "${apiKey}")`,
      ]) {
        const res = await gw.graphql(`mutation { ${op} }`, {}, { token: accessToken });
        expect(res.body.errors![0].extensions.code).toBe('FORBIDDEN');
      }
      const anon = await gw.graphql(`mutation { issueApiCredential(distributorId: "${distributor.id}") { apiKey } }`);
      expect(anon.body.errors![0].extensions.code).toBe('UNAUTHENTICATED');
    });

    it('issuing for an unknown distributor is NOT_FOUND', async () => {
      await market();
      const res = await gw.graphql(`mutation { issueApiCredential(distributorId: "DT999999") { apiKey } }`, {}, { token: await gw.opsToken() });
      expect(res.body.errors![0]).toMatchObject({ message: 'distributorId not found: DT999999', extensions: { code: 'NOT_FOUND' } });
    });
  });

  describe('POST /auth/token', () => {
    it('trades x-api-key and x-api-secret for accessToken, refreshToken, tokenType Bearer and expiresIn 900', async () => {
      const { distributor } = await market();
      const { apiKey, apiSecret } = await aCredential(gw, distributor);
      const res = await token(apiKey, apiSecret);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        isError: false,
        errorMsg: 'NA',
        data: { accessToken: expect.any(String), refreshToken: expect.stringMatching(/^rt_/), tokenType: 'Bearer', expiresIn: 900 },
      });
      // a signed JWT (HS256) for the distributor, valid 15 minutes by the gateway clock
      const claims = decodeJwt(res.body.data.accessToken);
      expect(decodeProtectedHeader(res.body.data.accessToken)).toMatchObject({ alg: 'HS256', typ: 'JWT' });
      expect(claims).toMatchObject({ sub: distributor.id, iat: T0.getTime() / 1000, exp: T0.getTime() / 1000 + 900 });
      expect((await listFunds(bearer(res.body.data.accessToken))).status).toBe(200);
    });

    it.each([
      ['a wrong secret', (k: string) => [k, 'sk_wrong']],
      ['an unknown key', () => ['pk_unknown', 'sk_whatever']],
    ])('%s is 401 `invalid api key or secret`', async (_name, creds) => {
      const { distributor } = await market();
      const { apiKey } = await aCredential(gw, distributor);
      const [k, s] = creds(apiKey);
      const res = await token(k, s);
      expect(res.status).toBe(401);
      expect(res.body).toEqual(unauthorized('invalid api key or secret'));
    });

    it('missing headers are 401 `x-api-key and x-api-secret headers are required`', async () => {
      const { distributor } = await market();
      const { apiKey } = await aCredential(gw, distributor);
      for (const res of [await token(), await token(apiKey), await token(undefined, 'sk_x'), await token(apiKey, '')]) {
        expect(res.status).toBe(401);
        expect(res.body).toEqual(unauthorized('x-api-key and x-api-secret headers are required'));
      }
    });

    it('credentials in URL parameters are refused with 400, even when the headers are right', async () => {
      const { distributor } = await market();
      const { apiKey, apiSecret, accessToken } = await aTokenPair(gw, distributor);
      const urls = [`/auth/token?x-api-key=${apiKey}&x-api-secret=${apiSecret}`, `/auth/token?apiKey=${apiKey}`];
      for (const url of urls) {
        const res = await gw.api('POST', url, { headers: { 'x-api-key': apiKey, 'x-api-secret': apiSecret } });
        expect(res.status).toBe(400);
        expect(res.body.errorMsg).toMatch(/^credentials must not be sent in URL parameters/);
      }
      const viaQuery = await gw.api('GET', `/assets/shareclass/all?access_token=${accessToken}`);
      expect(viaQuery.status).toBe(400);
      expect(viaQuery.body).toEqual({ isError: true, errorMsg: 'credentials must not be sent in URL parameters (access_token)', data: {} });
    });
  });

  describe('Authorization: Bearer on every other surface-O endpoint', () => {
    it('a missing token is 401 `missing bearer token`', async () => {
      const { shareClass } = await market();
      for (const [method, path] of [
        ['GET', '/assets/shareclass/all'],
        ['GET', `/assets/shareclass/${shareClass.id}`],
        ['GET', `/assets/shareclass/nav/live?shareClassId=${shareClass.id}`],
        ['GET', `/assets/shareclass/nav/history?shareClassId=${shareClass.id}`],
        ['POST', '/user/register'],
        ['GET', `/transaction/holdings/user/US000001/shareclass/${shareClass.id}`],
      ]) {
        const res = await gw.api(method, path, { body: method === 'POST' ? {} : undefined });
        expect([path, res.status, res.body]).toEqual([path, 401, unauthorized('missing bearer token')]);
      }
    });

    it('an empty bearer is 401 `missing bearer token`; a tampered or foreign-signed token is 401 `invalid access token`', async () => {
      const { distributor, other } = await market();
      const { accessToken } = await aTokenPair(gw, distributor);
      expect((await listFunds({ authorization: 'Bearer ' })).body).toEqual(unauthorized('missing bearer token'));
      const [h, p, s] = accessToken.split('.');
      const forgedPayload = Buffer.from(JSON.stringify({ ...decodeJwt(accessToken), sub: other.id })).toString('base64url');
      const flippedSig = s.slice(0, -2) + (s.endsWith('AA') ? 'BB' : 'AA');
      const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${p}.`;
      for (const bad of [`${h}.${forgedPayload}.${s}`, `${h}.${p}.${flippedSig}`, none, 'not-a-jwt', 'ops_not-an-ops-token']) {
        const res = await listFunds(bearer(bad));
        expect([bad, res.status, res.body]).toEqual([bad, 401, unauthorized('invalid access token')]);
      }
    });

    it('an access token is valid for 15 minutes by the gateway clock, then 401 `access token expired`', async () => {
      const { distributor } = await market();
      const { accessToken } = await aTokenPair(gw, distributor);
      gw.clock.advance(15 * 60_000 - 1_000);
      expect((await listFunds(bearer(accessToken))).status).toBe(200);
      gw.clock.advance(1_000);
      const res = await listFunds(bearer(accessToken));
      expect(res.status).toBe(401);
      expect(res.body).toEqual(unauthorized('access token expired'));
    });

    it('GraphQL refuses an invalid or expired distributor token with UNAUTHENTICATED', async () => {
      const { distributor } = await market();
      const { accessToken } = await aTokenPair(gw, distributor);
      const ok = await gw.graphql('{ shareClasses { id } }', {}, { token: accessToken });
      expect(ok.body.errors).toBeUndefined();
      gw.clock.advance(15 * 60_000);
      const expired = await gw.graphql('{ shareClasses { id } }', {}, { token: accessToken });
      expect(expired.status).toBe(401);
      expect(expired.body.errors![0].extensions.code).toBe('UNAUTHENTICATED');
    });
  });

  describe('POST /auth/refresh', () => {
    it('rotates the refresh token: a new pair, and the new access token works after the old one expired', async () => {
      const { distributor } = await market();
      const first = await aTokenPair(gw, distributor);
      gw.clock.advance(20 * 60_000);
      const res = await refresh(first.refreshToken);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ accessToken: expect.any(String), refreshToken: expect.stringMatching(/^rt_/), tokenType: 'Bearer', expiresIn: 900 });
      expect(res.body.data.refreshToken).not.toBe(first.refreshToken);
      expect((await listFunds(bearer(first.accessToken))).body.errorMsg).toBe('access token expired');
      expect((await listFunds(bearer(res.body.data.accessToken))).status).toBe(200);
      // and the rotated token refreshes in turn
      expect((await refresh(res.body.data.refreshToken)).status).toBe(200);
    });

    it('a reused refresh token is refused and revokes its whole family, access tokens included', async () => {
      const { distributor } = await market();
      const first = await aTokenPair(gw, distributor);
      const second = (await refresh(first.refreshToken)).body.data;
      const reuse = await refresh(first.refreshToken);
      expect(reuse.status).toBe(401);
      expect(reuse.body).toEqual(unauthorized('refresh token already used; its token family is revoked'));
      // the legitimate successor is dead too, and so are the family's access tokens
      expect((await refresh(second.refreshToken)).body).toEqual(unauthorized('refresh token revoked'));
      expect((await listFunds(bearer(second.accessToken))).body).toEqual(unauthorized('access token revoked'));
      expect((await listFunds(bearer(first.accessToken))).body).toEqual(unauthorized('access token revoked'));
      // another login of the same credential is unaffected
      const fresh = await token(first.apiKey, first.apiSecret);
      expect((await listFunds(bearer(fresh.body.data.accessToken))).status).toBe(200);
    });

    it('an unknown refresh token is 401; a missing one is 400 `refreshToken is required`', async () => {
      await market();
      expect((await refresh('rt_unknown')).body).toEqual(unauthorized('invalid refresh token'));
      const missing = await refresh(undefined);
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ isError: true, errorMsg: 'refreshToken is required', data: {} });
    });

    it('a refresh token expires after its lifetime (7 days by default)', async () => {
      const { distributor } = await market();
      const pair = await aTokenPair(gw, distributor);
      gw.clock.advance(7 * 24 * 3600_000);
      expect((await refresh(pair.refreshToken)).body).toEqual(unauthorized('refresh token expired'));
    });
  });

  describe('a distributor that is not active', () => {
    it.each(['suspended', 'closed'])('a %s distributor gets no access token and cannot refresh one: 403 naming its status', async (status) => {
      const { distributor } = await market();
      const pair = await aTokenPair(gw, distributor);
      const suspend = await gw.graphql(
        `mutation($id: ID!, $s: String!) { updateDistributor(id: $id, input: {status: $s}) { status } }`,
        { id: distributor.id, s: status },
        { token: await gw.opsToken() },
      );
      expect(suspend.body.data.updateDistributor.status).toBe(status);
      const issued = await token(pair.apiKey, pair.apiSecret);
      expect(issued.status).toBe(403);
      expect(issued.body).toEqual({ isError: true, errorMsg: `distributor is ${status}`, data: {} });
      const refreshed = await refresh(pair.refreshToken);
      expect(refreshed.status).toBe(403);
      expect(refreshed.body).toEqual({ isError: true, errorMsg: `distributor is ${status}`, data: {} });
      // reactivated, the same refresh token still works (the refusal consumed nothing)
      await gw.graphql(
        `mutation($id: ID!) { updateDistributor(id: $id, input: {status: "active"}) { status } }`,
        { id: distributor.id },
        { token: await gw.opsToken() },
      );
      expect((await refresh(pair.refreshToken)).status).toBe(200);
    });
  });

  describe('revocation and rotation', () => {
    it('revoking a credential ends its access and refresh tokens at once, and its key no longer logs in', async () => {
      const { distributor } = await market();
      const pair = await aTokenPair(gw, distributor);
      const res = await gw.graphql(`mutation($k: String!) { revokeApiCredential(apiKey: $k) }`, { k: pair.apiKey }, { token: await gw.opsToken() });
      expect(res.body.data.revokeApiCredential).toBe(true);
      expect((await listFunds(bearer(pair.accessToken))).body).toEqual(unauthorized('access token revoked'));
      expect((await refresh(pair.refreshToken)).body).toEqual(unauthorized('refresh token revoked'));
      expect((await token(pair.apiKey, pair.apiSecret)).body).toEqual(unauthorized('invalid api key or secret'));
    });

    it('rotating a credential issues a new key and secret; the old pair and its tokens stop working', async () => {
      const { distributor } = await market();
      const old = await aTokenPair(gw, distributor);
      const res = await gw.graphql(
        `mutation($k: String!) { rotateApiCredential(apiKey: $k) { apiKey apiSecret distributorId } }`,
        { k: old.apiKey },
        { token: await gw.opsToken() },
      );
      const rotated = res.body.data.rotateApiCredential;
      expect(rotated.apiKey).not.toBe(old.apiKey);
      expect(rotated.distributorId).toBe(distributor.id);
      expect((await listFunds(bearer(old.accessToken))).body).toEqual(unauthorized('access token revoked'));
      expect((await token(old.apiKey, old.apiSecret)).status).toBe(401);
      const fresh = await token(rotated.apiKey, rotated.apiSecret);
      expect((await listFunds(bearer(fresh.body.data.accessToken))).status).toBe(200);
      // a revoked key cannot be rotated again
      const again = await gw.graphql(`mutation($k: String!) { rotateApiCredential(apiKey: $k) { apiKey } }`, { k: old.apiKey }, { token: await gw.opsToken() });
      expect(again.body.errors![0]).toMatchObject({ message: 'apiKey not found', extensions: { code: 'NOT_FOUND' } });
    });
  });
});
