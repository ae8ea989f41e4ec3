import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../../src/common/clock';
import { runInScope } from '../../src/common/request-scope';
import { migrate, openDatabase } from '../../src/persistence/orm';
import { OpsTokenService } from '../../src/modules/auth/ops-token.service';
import { killed, MAIN, startChildGateway, type ChildGateway } from '../support/child-gateway';
import { aDistributor } from '../support/factories';
import { httpRequest } from '../support/http';

/**
 * The built gateway started as a deployment would (`APP_ENV=production`, real keys, no NODE_ENV):
 * none of the development conveniences answer, and a setting that would open a door refuses to
 * start, naming it.
 */
const KEYS = {
  APP_ENV: 'production',
  JWT_SIGNING_KEY: 'production-signing-key-0123456789abcdef',
  WEBHOOK_SECRET_KEY: Buffer.alloc(32, 9).toString('base64'),
  METRICS_TOKEN: 'metrics-token-0123456789',
  NODE_ENV: undefined,
  DATABASE_URL: undefined,
  SEED_DEMO: undefined,
};

/** Anything that looks like a stack frame or a source location. */
const LEAK = /stacktrace|node_modules|\/src\/|\/dist\/|\.[jt]s:\d+|\bat [\w.<>]+ \(/;

describe('a production start', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gw-prod-'));
  let gw: ChildGateway;
  let ops: string;

  beforeAll(async () => {
    // given a database holding a distributor whose host is mapped but bound to nothing, and an ops token
    const db = await openDatabase({ databaseUrl: null, dataDir, poolMax: 2, clock: systemClock });
    await migrate(db.orm, null);
    await aDistributor(db.orm.em.fork(), ['api.partner.test']);
    ops = (await runInScope({ actor: 'test' }, () => new OpsTokenService(systemClock).issue(db.orm.em.fork(), 'prod-ops', ['admin']))).token;
    await db.close();
    gw = await startChildGateway({ ...KEYS, DATA_DIR: dataDir });
    // two embedded-database starts, one of them a child process: slow on a loaded machine
  }, 180_000);
  afterAll(async () => {
    if (gw) await killed(gw.child, 'SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints no ops token and no #token= sign-in link', () => {
    expect(gw.output()).not.toMatch(/#token=|Bearer ops_|x-api-secret/);
  });

  it('serves no Apollo landing page, no console source maps, no sign-in link meta tag; the console\'s CSP connects to itself only', async () => {
    const landing = await httpRequest(gw.port, 'GET', '/graphql', { headers: { accept: 'text/html' } });
    expect(landing.text).not.toMatch(/<html|<script|embeddable|apollographql\.com/i);
    const index = await httpRequest(gw.port, 'GET', '/console/');
    expect(index.status).toBe(200);
    expect(index.text).not.toContain('console-sign-in-link');
    expect(index.headers['content-security-policy']).toContain("connect-src 'self';");
    const script = /src="\/console\/(assets\/[^"]+\.js)"/.exec(index.text)![1];
    expect((await httpRequest(gw.port, 'GET', `/console/${script}.map`)).status).toBe(404);
  });

  it('keeps /metrics shut and /ready terse without the metrics token', async () => {
    expect((await httpRequest(gw.port, 'GET', '/metrics')).status).toBe(401);
    expect((await httpRequest(gw.port, 'GET', '/ready')).body).toEqual({ isError: false, errorMsg: 'NA', data: { status: 'ready' } });
    expect((await httpRequest(gw.port, 'GET', '/metrics', { headers: { authorization: `Bearer ${KEYS.METRICS_TOKEN}` } })).status).toBe(200);
  });

  it('answers errors without stack traces or file paths, though NODE_ENV is unset', async () => {
    const answers = [
      await httpRequest(gw.port, 'POST', '/graphql', { body: { query: '{ nope }' } }),
      await httpRequest(gw.port, 'POST', '/graphql', { body: { query: '{' } }),
      await httpRequest(gw.port, 'GET', `/graphql?query=${encodeURIComponent('{ health { status } }')}`),
      await httpRequest(gw.port, 'POST', '/graphql', { body: { query: '{ health { status } }' }, headers: { authorization: 'Bearer ops_wrong' } }),
      await httpRequest(gw.port, 'POST', '/graphql', { body: { query: 'query A { health { status } }', operationName: 'B' } }),
      await httpRequest(gw.port, 'POST', '/api/v1/investor/register', { raw: '{', headers: { 'content-type': 'application/json' } }),
    ];
    for (const res of answers) expect({ status: res.status, leak: LEAK.exec(res.text)?.[0] ?? null }).toEqual({ status: expect.any(Number), leak: null });
    expect(answers.map((a) => a.status)).toEqual([400, 400, 400, 401, 400, 400]);
    // introspection is refused
    const schema = await httpRequest(gw.port, 'POST', '/graphql', { body: { query: '{ __schema { types { name } } }' }, headers: { authorization: `Bearer ${ops}` } });
    expect(schema.status).toBe(400);
  });

  it('refuses a mapped host that is bound to nothing, until ops bind it', async () => {
    const unbound = await httpRequest(gw.port, 'GET', '/api/v1/funds/shareclass/all', { host: 'api.partner.test' });
    expect(unbound.status).toBe(403);
    expect(unbound.body.errorMsg).toBe('host api.partner.test is not bound: bind it to source ranges or a client certificate (bindDistributorHost)');
    const bound = await httpRequest(gw.port, 'POST', '/graphql', {
      body: { query: 'mutation { bindDistributorHost(input: {hostname: "api.partner.test", sourceRanges: ["127.0.0.0/8"]}) { sourceRanges } }' },
      headers: { authorization: `Bearer ${ops}` },
    });
    expect(bound.body).toEqual({ data: { bindDistributorHost: { sourceRanges: ['127.0.0.0/8'] } } });
    expect((await httpRequest(gw.port, 'GET', '/api/v1/funds/shareclass/all', { host: 'api.partner.test' })).status).toBe(200);
  });

  it.each([
    [{ METRICS_TOKEN: undefined }, 'METRICS_TOKEN is required when APP_ENV is production'],
    [{ TRUST_PROXY: '0.0.0.0/1,128.0.0.0/1' }, 'TRUST_PROXY "0.0.0.0/1,128.0.0.0/1" trusts every peer'],
    [{ WEBHOOK_ALLOWED_HOSTS: '0.0.0.0/0' }, 'WEBHOOK_ALLOWED_HOSTS "0.0.0.0/0" covers every address'],
    [{ HOST_BINDING_REQUIRED: 'false' }, 'HOST_BINDING_REQUIRED cannot be turned off when APP_ENV is production'],
  ])('refuses to start with %j, naming it', (env, message) => {
    const full: NodeJS.ProcessEnv = { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, ...KEYS, ...env };
    for (const [k, v] of Object.entries(full)) if (v === undefined) delete full[k];
    delete full.NODE_OPTIONS;
    const run = spawnSync(process.execPath, [MAIN], { env: full, encoding: 'utf8', timeout: 30_000 });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(message);
  });
});
