import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { WS_CLOSE } from '../../src/transports/websocket/websocket';
import { aTokenPair } from '../support/auth.factories';
import { aDistributor } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { httpRequest, type HttpResponse } from '../support/http';

const ME = '{ opsTokenName }';
const EIGHT_HOURS = 8 * 3600;

/**
 * The console's session (docs/console.md#sessions): an ops token exchanged once for an HttpOnly,
 * SameSite=Strict cookie that only the console's own requests may use, ended by its expiry, by
 * signing out and by the revocation of its token; every other way in fails closed.
 */
describe('the console session cookie', () => {
  let gw: TestGateway;
  let origin: string;
  beforeAll(async () => {
    gw = await startTestGateway({ config: { trustProxy: ['loopback'] }, websocketRecheckMs: 60_000 });
    origin = `http://127.0.0.1:${gw.port}`;
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  /** The page's own request headers: its host, its origin. */
  const own = (extra: Record<string, string> = {}) => ({ host: `127.0.0.1:${gw.port}`, headers: { origin, ...extra } });
  const exchange = async (token: string, extra: Record<string, string> = {}) =>
    httpRequest(gw.port, 'POST', '/console/session', { ...own({ authorization: `Bearer ${token}`, ...extra }) });
  const cookieOf = (res: HttpResponse) => /^ops_console=([^;]+)/.exec(String(res.headers['set-cookie']))![1];
  const asConsole = (cookie: string, headers: Record<string, string> = { origin }) =>
    httpRequest(gw.port, 'POST', '/graphql', { host: `127.0.0.1:${gw.port}`, body: { query: ME }, headers: { cookie: `ops_console=${cookie}`, ...headers } });
  const signedIn = async () => cookieOf(await exchange(await gw.opsToken()));

  it('exchanges an ops token once for an HttpOnly, SameSite=Strict cookie of a working day, and nothing else', async () => {
    // when the page exchanges its token (the clock held, for exact figures)
    gw.clock.set(gw.clock.now());
    const res = await exchange(await gw.opsToken());
    // then a session cookie is set and the principal named
    expect(res.status).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['set-cookie']).toEqual([
      expect.stringMatching(new RegExp(`^ops_console=ocs_[A-Za-z0-9_-]{43}; Path=/; Max-Age=${EIGHT_HOURS}; HttpOnly; SameSite=Strict$`)),
    ]);
    expect(res.body).toEqual({
      isError: false,
      errorMsg: 'NA',
      data: { name: 'test-ops', roles: ['admin'], expiresAt: new Date(gw.clock.now().getTime() + EIGHT_HOURS * 1000).toISOString() },
    });
    // and the database keeps its hash only
    const [row] = await gw.em().getConnection().execute('select secret_hash from ops_console_session');
    expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.secret_hash).not.toContain(cookieOf(res));
  });

  it('is Secure when the gateway is reached over https', async () => {
    const res = await exchange(await gw.opsToken(), { 'x-forwarded-proto': 'https' });
    expect(res.status).toBe(201);
    expect(String(res.headers['set-cookie'])).toMatch(/; HttpOnly; SameSite=Strict; Secure$/);
  });

  it("signs the console's own requests in: /graphql, its socket, and the CSV exports", async () => {
    const cookie = await signedIn();
    // a POST from the page carries its Origin
    expect((await asConsole(cookie)).body).toEqual({ data: { opsTokenName: 'test-ops' } });
    // a GET (a CSV download) carries Sec-Fetch-Site instead; it answers as the token does
    const csv = (headers: Record<string, string>) => httpRequest(gw.port, 'GET', '/ops/positions.csv?shareClassId=SC999999', { headers });
    const withToken = await csv({ authorization: `Bearer ${await gw.opsToken()}` });
    const withCookie = await csv({ cookie: `ops_console=${cookie}`, 'sec-fetch-site': 'same-origin' });
    expect({ status: withCookie.status, text: withCookie.text }).toEqual({ status: withToken.status, text: withToken.text });
    expect(withCookie.status).not.toBe(401);
    // and a socket opened from the page (no token in connection_init) is the principal's
    const socket = await consoleSocket(cookie, origin);
    expect(await socket.ask(ME)).toEqual({ data: { opsTokenName: 'test-ops' } });
    await socket.close();
  });

  it('is read from no request that does not show it comes from the console itself', async () => {
    const cookie = await signedIn();
    const anonymous = { errors: [expect.objectContaining({ extensions: expect.objectContaining({ code: 'UNAUTHENTICATED' }) })] };
    // no evidence at all (a client that is no browser), another origin, another site's fetch metadata
    const evidence: Record<string, string>[] = [
      {},
      { origin: 'http://evil.example' },
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'cross-site' },
      { origin, 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of evidence) {
      const res = await asConsole(cookie, headers);
      expect({ headers, status: res.status, body: res.body }).toEqual({ headers, status: 200, body: expect.objectContaining(anonymous) });
    }
    // the CSV exports neither
    expect((await httpRequest(gw.port, 'GET', '/ops/positions.csv?shareClassId=SC999999', { headers: { cookie: `ops_console=${cookie}` } })).status).toBe(401);
    // nor a socket opened from another origin
    await expect(consoleSocket(cookie, 'http://evil.example')).rejects.toThrow(`closed: ${WS_CLOSE.forbidden}`);
    // nor is the session opened or ended from another origin
    const foreign = await httpRequest(gw.port, 'POST', '/console/session', {
      host: `127.0.0.1:${gw.port}`,
      headers: { origin: 'http://evil.example', authorization: `Bearer ${await gw.opsToken()}` },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.headers['set-cookie']).toBeUndefined();
    const signOut = await httpRequest(gw.port, 'DELETE', '/console/session', { headers: { 'sec-fetch-site': 'cross-site', cookie: `ops_console=${cookie}` } });
    expect(signOut.status).toBe(403);
    expect((await asConsole(cookie)).body).toEqual({ data: { opsTokenName: 'test-ops' } });
  });

  it('opens no session without a valid ops token, and refuses a cookie it never issued', async () => {
    const distributor = await aDistributor(gw.em());
    const { accessToken } = await aTokenPair(gw, distributor);
    for (const authorization of [undefined, 'Bearer ops_not-a-token', `Bearer ${accessToken}`, 'Basic dGVzdA==']) {
      const res = await httpRequest(gw.port, 'POST', '/console/session', { ...own(authorization ? { authorization } : {}) });
      expect({ authorization, status: res.status, cookie: res.headers['set-cookie'], isError: res.body.isError }).toEqual({
        authorization,
        status: 401,
        cookie: undefined,
        isError: true,
      });
    }
    const forged = await asConsole(`ocs_${'A'.repeat(43)}`);
    expect(forged.status).toBe(401);
    expect(forged.body.errors[0]).toMatchObject({ message: 'the console session has ended: sign in again', extensions: { code: 'UNAUTHENTICATED' } });
  });

  it('ends when it expires', async () => {
    const cookie = await signedIn();
    gw.clock.advance((EIGHT_HOURS - 1) * 1000);
    expect((await asConsole(cookie)).body).toEqual({ data: { opsTokenName: 'test-ops' } });
    gw.clock.advance(2000);
    expect((await asConsole(cookie)).status).toBe(401);
  });

  it('ends at once when its token is revoked: requests refused, its socket closed (4401)', async () => {
    const cookie = await signedIn();
    const socket = await consoleSocket(cookie, origin);
    await gw.gateway.services.opsToken.revokeByName(gw.em(), 'test-ops');
    expect((await asConsole(cookie)).status).toBe(401);
    expect(await socket.closed).toBe(WS_CLOSE.credentialEnded);
  });

  it('ends when the console signs out (the token lives on), and its cookie is cleared', async () => {
    const cookie = await signedIn();
    const res = await httpRequest(gw.port, 'DELETE', '/console/session', { ...own({ cookie: `ops_console=${cookie}` }) });
    expect(res.status).toBe(204);
    expect(res.headers['set-cookie']).toEqual(['ops_console=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict']);
    expect((await asConsole(cookie)).status).toBe(401);
    expect((await gw.graphql(ME, {}, { token: await gw.opsToken() })).body).toEqual({ data: { opsTokenName: 'test-ops' } });
  });

  /** A graphql-ws connection as the page opens one: no connectionParams, the cookie and Origin on the upgrade. */
  async function consoleSocket(cookie: string, from: string) {
    class PageSocket extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, { headers: { cookie: `ops_console=${cookie}`, origin: from } });
      }
    }
    let onClosed!: (code: number) => void;
    const closed = new Promise<number>((resolve) => (onClosed = resolve));
    const client = createClient({
      url: `ws://127.0.0.1:${gw.port}/graphql`,
      webSocketImpl: PageSocket,
      retryAttempts: 0,
      lazy: false,
      onNonLazyError: () => undefined,
    });
    client.on('closed', (e) => onClosed((e as { code: number }).code));
    await new Promise<void>((resolve, reject) => {
      client.on('connected', () => resolve());
      void closed.then((code) => reject(new Error(`closed: ${code}`)));
    }).catch(async (err: unknown) => {
      await client.dispose();
      throw err;
    });
    return {
      closed,
      ask: (query: string) =>
        new Promise<unknown>((resolve, reject) => client.subscribe({ query }, { next: resolve, error: reject, complete: () => undefined })),
      close: () => client.dispose(),
    };
  }
});
