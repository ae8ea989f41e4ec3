import { createClient, type Client } from 'graphql-ws';
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { shownId } from '../../src/common/ids';
import { WRITE_QUOTA_MESSAGE } from '../../src/access/quotas';
import { Investor } from '../../src/modules/investor/investor.entity';
import { aTokenPair } from '../support/auth.factories';
import { aDistributor } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { httpRequest, type HttpResponse } from '../support/http';
import { createGateway, type Gateway } from '../../src/app';
import { requiredRedis } from '../support/redis';

/*
 * Quotas per principal (src/access/quotas.ts): writes per distributor whichever door they come
 * through, and sockets and subscriptions held open per principal and per address. Small quotas
 * here; the defaults are in docs/scaling.md.
 */
const QUOTAS = { writes: 3, writesWindowSeconds: 60, socketsPerPrincipal: 2, socketsPerAddress: 3, subscriptionsPerPrincipal: 2, subscriptionsPerAddress: 3 };
const ORDER_UPDATES = 'subscription { orderUpdated { orderId status } }';

/** The documented refusal of a write over its quota: 429 in the envelope, with Retry-After within the window. */
function expectQuotaRefusal(res: HttpResponse) {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ isError: true, errorMsg: WRITE_QUOTA_MESSAGE, data: {} });
  expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(QUOTAS.writesWindowSeconds);
}

let hosts = 0;

/** A distributor on its own host, with a surface-O access token. */
async function aCaller(gw: TestGateway) {
  const host = `quota-${++hosts}-${randomUUID().slice(0, 8)}.test`;
  const distributor = await aDistributor(gw.em(), [host]);
  const { accessToken } = await aTokenPair(gw, distributor);
  return { distributor, host, token: accessToken, bearer: { authorization: `Bearer ${accessToken}` } };
}
type Caller = Awaited<ReturnType<typeof aCaller>>;

/** One write through each door, and one read. */
type Doors = Pick<TestGateway, 'api' | 'graphql'>;
const doors = {
  'REST R POST /investor/register': (gw: Doors, c: Caller) =>
    gw.api('POST', '/investor/register', { host: c.host, body: { distributorId: c.distributor.id, externalInvestorId: `ext-${randomUUID()}` } }),
  'REST O POST /user/register': (gw: Doors, c: Caller) =>
    gw.api('POST', '/user/register', { headers: c.bearer, body: { email: 'a@example.com', name: 'A', uniqueId: `u-${randomUUID()}` } }),
  'GraphQL mutation registerUser': (gw: Doors, c: Caller) =>
    gw.graphql(
      'mutation($i: RegisterUserInput!) { registerUser(input: $i) { userId } }',
      { i: { email: 'a@example.com', name: 'A', distributorId: shownId(c.distributor.id, 'distributor', 'O') } },
      { token: c.token },
    ),
};
type Door = keyof typeof doors;
const DOORS = Object.keys(doors) as Door[];

/** A write answered as accepted, whichever door. */
function expectAccepted(door: Door, res: HttpResponse) {
  expect(res.status).toBe(200);
  if (door.startsWith('GraphQL')) expect(res.body.errors).toBeUndefined();
  else expect(res.body.isError).toBe(false);
}

/** The same refusal at each door: the envelope over REST, extensions.code over GraphQL. */
function expectRefused(door: Door, res: HttpResponse) {
  if (!door.startsWith('GraphQL')) return expectQuotaRefusal(res);
  expect(res.body.data).toBeNull();
  expect(res.body.errors).toEqual([
    expect.objectContaining({ message: WRITE_QUOTA_MESSAGE, extensions: { code: 'RATE_LIMITED', retryAfter: expect.any(Number) } }),
  ]);
  expect(res.body.errors[0].extensions.retryAfter).toBeGreaterThanOrEqual(1);
}

const reads = (gw: TestGateway, c: Caller) => [
  gw.api('GET', '/funds/shareclass/all', { host: c.host }),
  gw.graphql('{ orders { items { id } } }', {}, { token: c.token }),
];

describe('write quota per distributor, behind every door', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ config: { quotas: QUOTAS } });
    await gw.reset();
  });
  afterAll(() => gw.close());

  it.each(DOORS)('%s: the writes beyond the quota answer 429 with Retry-After; reads are not counted; another distributor is unaffected', async (door) => {
    // given a distributor that has read more than its write quota
    const [c, other] = [await aCaller(gw), await aCaller(gw)];
    for (let i = 0; i < QUOTAS.writes + 1; i++) for (const res of await Promise.all(reads(gw, c))) expect(res.status).toBe(200);
    // when it writes its quota, and once more
    for (let i = 0; i < QUOTAS.writes; i++) expectAccepted(door, await doors[door](gw, c));
    const refused = await doors[door](gw, c);
    // then the extra write is refused and wrote nothing; its reads and another distributor's writes still go through
    expectRefused(door, refused);
    expect(await gw.em().count(Investor, { distributor: c.distributor.id })).toBe(QUOTAS.writes);
    for (const res of await Promise.all(reads(gw, c))) expect(res.status).toBe(200);
    expectAccepted(door, await doors[door](gw, other));
  });

  it('one quota per distributor across the doors: surface R, surface O and GraphQL count against the same one', async () => {
    const c = await aCaller(gw);
    for (const door of DOORS) expectAccepted(door, await doors[door](gw, c));
    for (const door of DOORS) expectRefused(door, await doors[door](gw, c));
  });

  it('a refused write is not kept under its Idempotency-Key: the key stays free for the retry', async () => {
    const c = await aCaller(gw);
    for (let i = 0; i < QUOTAS.writes; i++) expectAccepted(DOORS[0], await doors[DOORS[0]](gw, c));
    const key = { 'idempotency-key': `k-${randomUUID()}` };
    const body = { distributorId: c.distributor.id, externalInvestorId: 'ext-once' };
    expectQuotaRefusal(await gw.api('POST', '/investor/register', { host: c.host, headers: key, body }));
    const again = await gw.api('POST', '/investor/register', { host: c.host, headers: key, body });
    expectQuotaRefusal(again);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
  });
});

/** A graphql-ws connection attempt: connected, or closed with its code and reason. */
async function connect(port: number, token: string): Promise<{ client: Client; connected: boolean; code?: number; reason?: string }> {
  const client = createClient({
    url: `ws://127.0.0.1:${port}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { Authorization: `Bearer ${token}` },
    retryAttempts: 0,
    lazy: false,
    onNonLazyError: () => undefined,
  });
  return new Promise((resolve) => {
    client.on('connected', () => resolve({ client, connected: true }));
    client.on('closed', (e) => resolve({ client, connected: false, code: (e as { code: number }).code, reason: (e as { reason: string }).reason }));
  });
}

/** Subscribes on `client`: resolves 'open' once the server holds it (a probe query answered after it), or with its errors. */
async function subscribeOn(
  client: Client,
): Promise<{ state: 'open'; stop: () => void } | { state: 'refused'; errors: { message: string; extensions?: Record<string, unknown> }[] }> {
  let refusal: { message: string; extensions?: Record<string, unknown> }[] | null = null;
  const stop = client.subscribe({ query: ORDER_UPDATES }, { next: () => undefined, error: (e) => (refusal = e as typeof refusal), complete: () => undefined });
  // Operations on one socket are taken in order: once a later query answers, the subscription was decided.
  await new Promise<void>((resolve) =>
    client.subscribe({ query: '{ health { status } }' }, { next: () => undefined, error: () => resolve(), complete: () => resolve() }),
  );
  return refusal ? { state: 'refused', errors: refusal } : { state: 'open', stop };
}

describe('sockets and subscriptions per principal and per address', () => {
  let gw: TestGateway;
  const open: Client[] = [];
  beforeAll(async () => {
    gw = await startTestGateway({ config: { quotas: QUOTAS } });
    await gw.reset();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map(async (c) => c.dispose()));
  });
  afterAll(() => gw.close());

  const connected = async (token: string) => {
    const c = await connect(gw.port, token);
    open.push(c.client);
    return c;
  };

  it('a principal holds at most its sockets: the next is closed 4429, and accepted again once one closes', async () => {
    const a = await aCaller(gw);
    const [first, second] = [await connected(a.token), await connected(a.token)];
    expect([first.connected, second.connected]).toEqual([true, true]);
    expect(await connected(a.token)).toMatchObject({ connected: false, code: 4429, reason: 'Too many open sockets for this principal' });
    await first.client.dispose();
    await eventuallyConnected(() => connected(a.token));
  });

  it('an address holds at most its sockets, whichever principals: the next is closed 4429, and accepted again once one closes', async () => {
    const [a, b] = [await aCaller(gw), await aCaller(gw)];
    const held = [await connected(a.token), await connected(a.token), await connected(b.token)];
    expect(held.map((c) => c.connected)).toEqual([true, true, true]);
    expect(await connected(b.token)).toMatchObject({ connected: false, code: 4429, reason: 'Too many open sockets from this address' });
    await held[0].client.dispose();
    await eventuallyConnected(() => connected(b.token));
  });

  it('a principal holds at most its subscriptions: the next is refused RATE_LIMITED on an open socket, and accepted again once one completes', async () => {
    const a = await aCaller(gw);
    const { client } = await connected(a.token);
    const subs = [await subscribeOn(client), await subscribeOn(client)];
    expect(subs.map((s) => s.state)).toEqual(['open', 'open']);
    expect(await subscribeOn(client)).toEqual({
      state: 'refused',
      errors: [{ message: 'too many open subscriptions for this principal', extensions: { code: 'RATE_LIMITED' } }],
    });
    (subs[0] as { stop: () => void }).stop();
    await eventuallyOpen(() => subscribeOn(client));
  });

  it('an address holds at most its subscriptions, whichever principals; closing the socket gives its subscriptions back', async () => {
    const [a, b] = [await aCaller(gw), await aCaller(gw)];
    const socketA = (await connected(a.token)).client;
    const socketB = (await connected(b.token)).client;
    expect([(await subscribeOn(socketA)).state, (await subscribeOn(socketA)).state, (await subscribeOn(socketB)).state]).toEqual(['open', 'open', 'open']);
    expect(await subscribeOn(socketB)).toMatchObject({ state: 'refused', errors: [{ message: 'too many open subscriptions from this address' }] });
    await socketA.dispose();
    await eventuallyOpen(() => subscribeOn(socketB));
  });
});

/** A release reaches the server after the client's close: the next attempt is accepted within moments. */
async function eventuallyConnected(attempt: () => Promise<{ connected: boolean }>) {
  for (let i = 0; i < 50; i++) {
    if ((await attempt()).connected) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the socket was never accepted again');
}

async function eventuallyOpen(attempt: () => Promise<{ state: string }>) {
  for (let i = 0; i < 50; i++) {
    if ((await attempt()).state === 'open') return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the subscription was never accepted again');
}

describe('quotas shared by two gateways through Redis (REDIS_URL)', () => {
  let first: TestGateway;
  // A second instance on the same database (the embedded one included), as a deployment runs them.
  let second: Gateway;
  let secondDoors: Doors & { port: number };
  const open: Client[] = [];
  beforeAll(async () => {
    const redisUrl = await requiredRedis();
    // Counters of this run's own.
    const events = { redisUrl, redisChannelPrefix: `quota-test-${randomUUID()}:` };
    first = await startTestGateway({ config: { quotas: QUOTAS }, events });
    await first.reset();
    second = await createGateway({
      config: { env: 'test', bodyLimit: '100kb', quotas: QUOTAS },
      orm: first.db.orm,
      clock: first.clock,
      events,
      background: false,
    });
    const port = await second.listen(0, '127.0.0.1');
    secondDoors = {
      port,
      api: (method, path, opts) => httpRequest(port, method, `/api/v1${path}`, opts),
      graphql: (query, variables, opts = {}) =>
        httpRequest(port, 'POST', '/graphql', { body: { query, variables }, headers: opts.token ? { authorization: `Bearer ${opts.token}` } : {} }),
    };
  });
  afterAll(async () => {
    await Promise.all(open.map(async (c) => c.dispose()));
    await second.close();
    await first.close();
  });

  it('writes on one gateway count on the other', async () => {
    const c = await aCaller(first);
    expectAccepted(DOORS[0], await doors[DOORS[0]](first, c));
    expectAccepted(DOORS[0], await doors[DOORS[0]](secondDoors, c));
    expectAccepted(DOORS[1], await doors[DOORS[1]](first, c));
    expectQuotaRefusal(await doors[DOORS[0]](secondDoors, c));
  });

  it("sockets on one gateway count on the other, and a closed one's place is free on both", async () => {
    const a = await aCaller(first);
    const held = [await connect(first.port, a.token), await connect(first.port, a.token)];
    open.push(...held.map((h) => h.client));
    expect(held.map((h) => h.connected)).toEqual([true, true]);
    expect(await connect(secondDoors.port, a.token)).toMatchObject({ connected: false, code: 4429, reason: 'Too many open sockets for this principal' });
    await held[0].client.dispose();
    await eventuallyConnected(async () => {
      const c = await connect(secondDoors.port, a.token);
      open.push(c.client);
      return c;
    });
  });
});
