import { MikroORM } from '@mikro-orm/postgresql';
import { createGateway } from '../../src/app';
import { ormOptions } from '../../src/boot/orm';
import { SURFACE_R } from '../../rest-compat/surface-r';
import { aMarket, aNav } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { httpRequest } from '../support/http';

describe('Surface R: the facade around every endpoint', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  describe('hostname provisioning', () => {
    const ENDPOINTS: [string, string, unknown?][] = [
      ['GET', '/funds/shareclass/all'],
      ['GET', '/funds/shareclass/SC000001'],
      ['GET', '/funds/shareclass/nav/live?shareClassId=SC000001'],
      ['GET', '/funds/shareclass/nav/history?shareClassId=SC000001'],
      ['POST', '/investor/register', { distributorId: 'DT000001', externalInvestorId: 'x' }],
    ];

    it('an unmapped host gets 403 in the envelope on every endpoint but /health', async () => {
      // given a provisioned market on other hosts
      await aMarket(gw.em(), gw.clock.now());
      // when a request arrives on a host mapped to nobody
      for (const [method, path, body] of ENDPOINTS) {
        const res = await gw.api(method, path, { host: 'stranger.test', body });
        // then
        expect([method, path, res.status]).toEqual([method, path, 403]);
        expect(res.body).toEqual({ isError: true, errorMsg: 'host stranger.test is not provisioned for any distributor', data: {} });
      }
      const health = await gw.api('GET', '/health', { host: 'stranger.test' });
      expect(health.status).toBe(200);
    });

    it('every host-scoped row of the surface R table refuses an unmapped host', async () => {
      for (const route of SURFACE_R.filter((r) => r.auth === 'host' && !r.when)) {
        const path = route.path.replace(/:shareClassId/g, 'SC000001').replace(/:(\w+)/g, 'X000001');
        const res = await gw.api(route.method, path, { host: 'stranger.test', body: route.method === 'POST' ? {} : undefined });
        expect([route.method, route.path, res.status]).toEqual([route.method, route.path, 403]);
      }
    });

    it('hostnames match case-insensitively and without the port', async () => {
      const { hostA } = await aMarket(gw.em(), gw.clock.now());
      const res = await gw.api('GET', '/funds/shareclass/all', { host: `${hostA.toUpperCase()}:8443` });
      expect(res.status).toBe(200);
      expect(res.body.data.count).toBe(1);
    });
  });

  describe('GET /health', () => {
    it('returns status ok, an ISO-8601 timestamp and the environment name', async () => {
      gw.clock.set(new Date('2030-05-06T07:08:09.010Z'));
      const res = await gw.api('GET', '/health');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ isError: false, errorMsg: 'NA', data: { status: 'ok', timestamp: '2030-05-06T07:08:09.010Z', env: 'test' } });
    });

    it('sends no statement to the database', async () => {
      const knex = gw.db.orm.em.getConnection().getKnex();
      const statements: string[] = [];
      const listener = (q: { sql: string }) => statements.push(q.sql);
      knex.on('query', listener);
      try {
        const res = await gw.api('GET', '/health', { headers: { 'x-actor': 'prober' } });
        expect(res.status).toBe(200);
      } finally {
        knex.removeListener('query', listener);
      }
      expect(statements).toEqual([]);
    });

    it('answers ok while the database is unreachable, when endpoints that need it answer 503', async () => {
      // given a gateway whose database cannot be reached at all
      const orm = MikroORM.initSync({ ...ormOptions(gw.clock), clientUrl: 'postgresql://postgres@127.0.0.1:1/unreachable', pool: { min: 0, max: 1 } });
      const gateway = await createGateway({ config: { env: 'test', bodyLimit: '100kb' }, orm, clock: gw.clock });
      const port = await gateway.listen(0, '127.0.0.1');
      try {
        // when / then
        const health = await httpRequest(port, 'GET', '/api/v1/health');
        expect(health.status).toBe(200);
        expect(health.body).toMatchObject({ isError: false, data: { status: 'ok' } });
        const list = await httpRequest(port, 'GET', '/api/v1/funds/shareclass/all', { host: 'dist-a.test' });
        expect(list.status).toBe(503);
        expect(list.headers['retry-after']).toBe('1');
        expect(list.body).toEqual({ isError: true, errorMsg: 'service temporarily unavailable', data: {} });
        // and GraphQL, whose credential cannot be checked, says the same: retryable
        const graphql = await httpRequest(port, 'POST', '/graphql', {
          body: { query: '{ opsTokenName }' },
          headers: { authorization: 'Bearer ops_0123456789abcdef0123456789abcdef' },
        });
        expect(graphql.status).toBe(503);
        expect(graphql.headers['retry-after']).toBe('1');
        // (a stack trace beside them in development and test only)
        expect(graphql.body.errors).toEqual([
          { message: 'service temporarily unavailable', extensions: expect.objectContaining({ code: 'SERVICE_UNAVAILABLE', retryAfter: 1 }) },
        ]);
      } finally {
        await gateway.close();
        await orm.close(true);
      }
    });
  });

  describe('requests the facade refuses before any route runs', () => {
    it('malformed JSON is 400 in the envelope', async () => {
      const res = await gw.api('POST', '/investor/register', { host: 'dist-a.test', raw: '{"distributorId": "DT0' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ isError: true, errorMsg: 'malformed JSON body', data: {} });
    });

    it('a body that is a JSON array or a scalar is 400', async () => {
      for (const raw of ['[{"distributorId":"DT000001"}]', '"text"', '42']) {
        const res = await gw.api('POST', '/investor/register', { host: 'dist-a.test', raw });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ isError: true, errorMsg: expect.any(String), data: {} });
      }
    });

    it('an oversized body is 413 in the envelope', async () => {
      const res = await gw.api('POST', '/investor/register', {
        host: 'dist-a.test',
        body: { distributorId: 'DT000001', externalInvestorId: 'x'.repeat(200 * 1024) },
      });
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ isError: true, errorMsg: 'request body too large', data: {} });
    });

    it('an unknown path is 404 in the envelope', async () => {
      for (const [method, path] of [
        ['GET', '/nope'],
        ['POST', '/funds/shareclass/all'],
        ['GET', '/investor/register'],
      ]) {
        const res = await gw.api(method, path, { host: 'dist-a.test' });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ isError: true, errorMsg: `no route ${method} ${path}`, data: {} });
      }
      const outside = await httpRequest(gw.port, 'GET', '/elsewhere');
      expect(outside.status).toBe(404);
      expect(outside.body).toEqual({ isError: true, errorMsg: 'not found', data: {} });
    });
  });

  describe('audit', () => {
    it('x-actor is ignored on reads: the answer is the same and nothing is stamped', async () => {
      const { shareClass, investor, hostA } = await aMarket(gw.em(), gw.clock.now());
      await aNav(gw.em(), shareClass, '1.5', new Date(gw.clock.now().getTime() - 1000));
      for (const path of [
        '/funds/shareclass/all',
        `/funds/shareclass/${shareClass.id}`,
        `/funds/shareclass/nav/live?shareClassId=${shareClass.id}`,
        `/funds/shareclass/nav/history?shareClassId=${shareClass.id}`,
      ]) {
        const plain = await gw.api('GET', path, { host: hostA });
        const withActor = await gw.api('GET', path, { host: hostA, headers: { 'x-actor': 'mallory' } });
        expect(withActor.status).toBe(200);
        expect(withActor.body).toEqual(plain.body);
        expect(withActor.text).not.toContain('mallory');
      }
      const em = gw.em();
      const rows = await em.execute(`select count(*)::int as n from (
        select updated_by from share_class union all select updated_by from nav union all select updated_by from investor
        union all select updated_by from distributor union all select created_by from nav) t where updated_by = 'mallory'`);
      expect(rows[0].n).toBe(0);
      expect(investor.updatedBy).toBe('factory');
    });
  });
});
