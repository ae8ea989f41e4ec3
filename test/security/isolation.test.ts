import { SURFACE_O } from '../../rest-compat/surface-o';
import { SURFACE_R } from '../../rest-compat/surface-r';
import { PUBLIC_ROOT_FIELDS } from '../../src/transports/graphql/visibility';
import { Order } from '../../src/modules/order/order.entity';
import type { GraphQLObjectType } from 'graphql';
import { gatewaySchema } from '../../src/transports/graphql/schema';
import { aCredential, bearerOf } from '../support/auth.factories';
import { aDistributor } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { asOps } from '../support/ops.factories';
import { callOf, leaked, rejected, rootFields } from '../support/schema-walk';
import { subscribe } from '../support/subscriptions';
import { aTwoTenantWorld, type World } from '../support/two-tenant-world';

/**
 * One trust boundary, proved by enumeration rather than by example: every root field of the
 * emitted schema (Query, Mutation, Subscription) and every REST route of both surfaces is called
 *  - by nobody: every field but `health`, `issueAccessToken` and `refreshAccessToken` answers
 *    UNAUTHENTICATED and no data;
 *  - by distributor B naming distributor A's records (in both id forms): no answer carries
 *    anything of A's book, and A's book is unchanged afterwards.
 * Arguments are filled from A's ids by name, so a field or route added tomorrow is walked too.
 */

describe('one trust boundary: every field and every route, as nobody and as another distributor', () => {
  let gw: TestGateway;
  let world: World;
  let bookOfA: string;

  const snapshotOfA = async () => {
    const em = gw.em();
    const orders = await em.find(Order, { id: { $in: world.ordersOfA } }, { orderBy: { id: 'asc' }, populate: ['history'] });
    return JSON.stringify(orders.map((o) => ({ id: o.id, status: o.status, history: o.history.getItems().map((h) => h.status) })));
  };

  beforeAll(async () => {
    // Loopback peers are trusted proxies, so a forwarded header would be believed if anything read it.
    gw = await startTestGateway({ config: { trustProxy: ['127.0.0.1'] } });
    world = await aTwoTenantWorld(gw);
    bookOfA = await snapshotOfA();
  });
  afterAll(() => gw.close());

  const queriesAndMutations = [...rootFields('Query'), ...rootFields('Mutation')];

  it('the walk covers every root field of the emitted schema', () => {
    expect(queriesAndMutations.length + rootFields('Subscription').length).toBe(
      ['Query', 'Mutation', 'Subscription'].reduce((n, t) => n + Object.keys((gatewaySchema().getType(t) as GraphQLObjectType).getFields()).length, 0),
    );
    expect(queriesAndMutations.length).toBeGreaterThan(60);
  });

  it.each(queriesAndMutations.map((r) => [r.key, r] as const))('%s: nobody gets UNAUTHENTICATED and no data, unless the field is public', async (key, r) => {
    const { query, variables } = callOf(r.kind === 'Query' ? 'query' : 'mutation', r.field, world, false);
    const res = await gw.graphql(query, variables);
    expect(res.status).toBeLessThan(500);
    expect(rejected(res.body.errors)).toEqual([]);
    expect(leaked(world, res.body.data)).toEqual([]);
    if (PUBLIC_ROOT_FIELDS.has(key)) return;
    expect(res.body.data?.[r.field.name] ?? null).toBeNull();
    expect(res.body.errors?.map((e: { extensions?: { code?: string } }) => e.extensions?.code)).toEqual(['UNAUTHENTICATED']);
  });

  it.each(queriesAndMutations.flatMap((r) => [[r.key, 'DT/IN', r] as const, [r.key, 'PT/US', r] as const]))(
    '%s: distributor B naming A’s records (%s ids) learns nothing of A',
    async (_key, form, r) => {
      const { query, variables } = callOf(r.kind === 'Query' ? 'query' : 'mutation', r.field, world, form === 'PT/US');
      const res = await gw.graphql(query, variables, { token: world.bToken });
      expect(res.status).toBeLessThan(500);
      // The walk must run each field, not be stopped by the document limits.
      expect(rejected(res.body.errors)).toEqual([]);
      expect({ query, leaked: leaked(world, res.body.data) }).toEqual({ query, leaked: [] });
    },
  );

  it('every REST route of both surfaces, called by B with A’s ids, answers nothing of A', async () => {
    const bearer = { authorization: `Bearer ${world.bToken}` };
    const routes = [...SURFACE_R.map((r) => ({ r, surface: 'R' as const })), ...SURFACE_O.map((r) => ({ r, surface: 'O' as const }))];
    expect(routes.length).toBeGreaterThan(20);
    for (const { r, surface } of routes) {
      for (const aliasForm of [false, true]) {
        const values = world.values(aliasForm);
        const path = r.path.replace(/:(\w+)/g, (_m, name: string) =>
          // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the placeholder values are texts and numbers
          encodeURIComponent(String(name === 'id' ? world.ordersOfA[1] : (values[name] ?? 'x'))),
        );
        const query = `?shareClassId=${String(values.shareClassId)}&startDate=0&endDate=${Date.now()}&endpoint_url=${encodeURIComponent(String(values.endpoint_url))}`;
        const res = await gw.api(r.method, `${path}${query}`, {
          host: world.bHost,
          headers: surface === 'O' ? bearer : {},
          body: r.method === 'POST' ? values : undefined,
        });
        expect(res.status).toBeLessThan(500);
        expect({ route: `${surface} ${r.method} ${r.path}`, leaked: leaked(world, res.body.data) }).toEqual({
          route: `${surface} ${r.method} ${r.path}`,
          leaked: [],
        });
      }
    }
  });

  it('every surface-R route, called on B’s host with X-Forwarded-Host naming A’s, answers as B (nothing of A)', async () => {
    for (const r of SURFACE_R) {
      const values = world.values(false);
      const path = r.path.replace(/:(\w+)/g, (_m, name: string) =>
        // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the placeholder values are texts and numbers
        encodeURIComponent(String(name === 'id' ? world.ordersOfA[1] : (values[name] ?? 'x'))),
      );
      const query = `?shareClassId=${String(values.shareClassId)}&startDate=0&endDate=${Date.now()}&endpoint_url=${encodeURIComponent(String(values.endpoint_url))}`;
      const res = await gw.api(r.method, `${path}${query}`, {
        host: world.bHost,
        headers: { 'x-forwarded-host': world.aHost, forwarded: `host=${world.aHost}` },
        body: r.method === 'POST' ? values : undefined,
      });
      expect(res.status).toBeLessThan(500);
      expect({ route: `R ${r.method} ${r.path}`, leaked: leaked(world, res.body.data) }).toEqual({ route: `R ${r.method} ${r.path}`, leaked: [] });
    }
  });

  it('every REST route of both surfaces, called from a page on another site (Origin, Sec-Fetch-Site), is refused with 403 before it runs', async () => {
    const bearer = { authorization: `Bearer ${world.bToken}` };
    for (const { r, surface } of [...SURFACE_R.map((r) => ({ r, surface: 'R' as const })), ...SURFACE_O.map((r) => ({ r, surface: 'O' as const }))]) {
      const values = world.values(surface === 'O');
      const path = r.path.replace(/:(\w+)/g, (_m, name: string) =>
        // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the placeholder values are texts and numbers
        encodeURIComponent(String(name === 'id' ? world.ordersOfA[0] : (values[name] ?? 'x'))),
      );
      for (const crossSite of <Array<Record<string, string>>>[{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }]) {
        // A's own host and credentials: the victim's browser would send them
        const res = await gw.api(r.method, path, {
          host: world.aHost,
          headers: { ...(surface === 'O' ? bearer : {}), ...crossSite },
          body: r.method === 'POST' ? values : undefined,
        });
        expect({ route: `${surface} ${r.method} ${r.path}`, crossSite, status: res.status, isError: res.body.isError }).toEqual({
          route: `${surface} ${r.method} ${r.path}`,
          crossSite,
          status: 403,
          isError: true,
        });
      }
    }
  });

  it.each(rootFields('Subscription').map((r) => [r.key, r] as const))('%s: nobody cannot subscribe; B hears nothing of A', async (_key, r) => {
    const { query, variables } = callOf('subscription', r.field, world, true);
    const anonymous = await subscribe(gw.port, query, variables).catch((err: Error) => err);
    if (!(anonymous instanceof Error)) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(anonymous.errors.length).toBeGreaterThan(0);
      expect(JSON.stringify(anonymous.errors)).toMatch(/UNAUTHENTICATED|authentication required/);
      await anonymous.close();
    }
    const unfiltered = callOf('subscription', { ...r.field, args: [] } as never, world, true);
    const asB = await subscribe(gw.port, unfiltered.query, {}, world.bToken);
    // A's book moves: an order transition, a NAV on A's own share class.
    const token = await gw.opsToken();
    await asOps(gw, `mutation { rejectOneStepOrder(orderId: "${world.ordersOfA[1]}", reason: "walk") { status } }`, undefined, {
      authorization: `Bearer ${token}`,
    }).catch(() => undefined);
    await asOps(gw, `mutation { publishNav(input: {shareClassId: "${String(world.values(false).shareClassId)}", close: "2.52"}) { close } }`, undefined, {
      authorization: `Bearer ${token}`,
    }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(leaked(world, asB.messages)).toEqual([]);
    await asB.close();
  });

  it('A’s book is unchanged by everything B tried', async () => {
    const after = JSON.parse(await snapshotOfA()) as { id: string; status: string; history: string[] }[];
    const before = JSON.parse(bookOfA) as typeof after;
    // Only ops (the subscription walk) may have rejected A's one-step order.
    expect(after.map((o) => ({ ...o, history: o.history.filter((s) => s !== 'rejected'), status: o.status === 'rejected' ? 'pending' : o.status }))).toEqual(
      before,
    );
  });

  it('a distributor that is not active is refused on every door, with its status named', async () => {
    const em = gw.em();
    const c = await aDistributor(em, ['dist-c.test']);
    const headers = await bearerOf(gw, c);
    const token = await gw.opsToken();
    await asOps(gw, `mutation { updateDistributor(id: "${c.id}", input: {status: "suspended"}) { status } }`, undefined, { authorization: `Bearer ${token}` });
    const r = await gw.api('GET', '/funds/shareclass/all', { host: 'dist-c.test' });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ isError: true, errorMsg: 'distributor is suspended', data: {} });
    const o = await gw.api('GET', '/assets/shareclass/all', { headers });
    expect(o.status).toBe(403);
    expect(o.body.errorMsg).toBe('distributor is suspended');
    const g = await gw.graphql('{ shareClasses { id } }', undefined, { token: headers.authorization.slice(7) });
    expect(g.status).toBe(403);
    expect(g.body.errors![0]).toMatchObject({ message: 'distributor is suspended', extensions: { code: 'FORBIDDEN' } });
    // and it gets no new token to hold
    const { apiKey, apiSecret } = await aCredential(gw, c);
    const t = await gw.api('POST', '/auth/token', { headers: { 'x-api-key': apiKey, 'x-api-secret': apiSecret } });
    expect(t.status).toBe(403);
    expect(t.body.errorMsg).toBe('distributor is suspended');
  });
});
