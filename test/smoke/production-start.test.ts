import { Client } from 'pg';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../../src/common/clock';
import { runInScope } from '../../src/common/request-scope';
import { OpsTokenService } from '../../src/modules/auth/ops-token.service';
import { ApiCredential } from '../../src/modules/auth/api-credential.entity';
import { openTestDatabase, serverUrl, type TestDatabase } from '../support/database';
import { killed, MAIN, startChildGateway, type ChildGateway } from '../support/child-gateway';
import { aDistributor } from '../support/factories';
import { httpRequest } from '../support/http';
import { STRONG_KEYS } from '../support/production-keys';

/**
 * The built gateway started as an operator would (`node dist/src/main.js` with NODE_ENV=production
 * and no APP_ENV, real keys): it runs as production, none of the development conveniences answer,
 * and a setting that would open a door refuses to start, naming it.
 */
const KEYS = {
  APP_ENV: undefined,
  NODE_ENV: 'production',
  JWT_SIGNING_KEY: 'production-signing-key-0123456789abcdef',
  WEBHOOK_SECRET_KEY: STRONG_KEYS.WEBHOOK_SECRET_KEY,
  METRICS_TOKEN: 'metrics-token-0123456789',
  SEED_DEMO: undefined,
  CHAINS: undefined,
};

/** Runs the built gateway to its end (a refusal ends it at once) and returns its exit code and stderr. */
function refusedStart(env: Record<string, string | undefined>): { status: number | null; stderr: string; stdout: string } {
  const full: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    ...KEYS,
    DATABASE_URL: 'postgres://postgres@127.0.0.1:1/never-reached',
    ...env,
  };
  for (const [k, v] of Object.entries(full)) if (v === undefined) delete full[k];
  delete full.NODE_OPTIONS;
  return spawnSync(process.execPath, [MAIN], { env: full, encoding: 'utf8', timeout: 30_000 });
}

describe('production refuses to start, naming each reason', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gw-prod-key-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('without DATABASE_URL and METRICS_TOKEN and with TRUST_PROXY=1: all three in one message, before anything starts', () => {
    const run = refusedStart({ DATABASE_URL: undefined, METRICS_TOKEN: undefined, TRUST_PROXY: '1' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('TRUST_PROXY must list the proxies\' addresses or CIDR ranges (e.g. 10.0.0.5 or 10.0.0.0/24), not a hop count "1"');
    expect(run.stderr).toContain('METRICS_TOKEN is required when APP_ENV is production');
    expect(run.stderr).toContain('DATABASE_URL is required when APP_ENV is production (the embedded database is for development and test only)');
    expect(run.stderr).toContain('APP_ENV is unset, so the gateway runs as production');
    expect(run.stdout).toBe('');
  });

  it('with an agent key file that group or others may read', () => {
    const file = join(dir, 'agent.key');
    writeFileSync(file, `0x${'1f'.repeat(32)}\n`);
    chmodSync(file, 0o644);
    const chains = JSON.stringify({ '8453': { rpcUrls: ['http://127.0.0.1:1'], agentKeyFile: file } });
    const run = refusedStart({ CHAINS: chains });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`CHAINS.8453.agentKeyFile "${file}" is readable by others than its owner (mode 0644): chmod 600 it`);
    expect(run.stderr).not.toContain('1f1f1f');
  });

  it.each([
    [{ DATABASE_URL: undefined }, 'DATABASE_URL is required when APP_ENV is production'],
    [{ METRICS_TOKEN: undefined }, 'METRICS_TOKEN is required when APP_ENV is production'],
    [{ TRUST_PROXY: '2' }, 'TRUST_PROXY must list the proxies\' addresses or CIDR ranges (e.g. 10.0.0.5 or 10.0.0.0/24), not a hop count "2"'],
    [{ TRUST_PROXY: 'true' }, 'TRUST_PROXY must list the proxies\' addresses or CIDR ranges, never "true"'],
    [{ TRUST_PROXY: '0.0.0.0/1,128.0.0.0/1' }, 'TRUST_PROXY "0.0.0.0/1,128.0.0.0/1" trusts every peer'],
    [{ WEBHOOK_ALLOWED_HOSTS: '0.0.0.0/0' }, 'WEBHOOK_ALLOWED_HOSTS "0.0.0.0/0" covers every address'],
    [{ HOST_BINDING_REQUIRED: 'false' }, 'HOST_BINDING_REQUIRED cannot be turned off when APP_ENV is production'],
    [{ SEED_DEMO: 'true' }, 'SEED_DEMO is only allowed when APP_ENV is development or test'],
    [{ SUPPLY_SIMULATOR: 'true' }, 'SUPPLY_SIMULATOR is only allowed when APP_ENV is development or test'],
    [{ JWT_SIGNING_KEY: undefined }, 'JWT_SIGNING_KEY is required when APP_ENV is production'],
    // secrets of the right length and no secret at all (src/config/secret-strength.ts)
    [{ JWT_SIGNING_KEY: 'a'.repeat(32) }, 'JWT_SIGNING_KEY is weak: it is one character repeated (generate one with `openssl rand -base64 48`)'],
    [{ JWT_SIGNING_KEY: 'abcd'.repeat(8) }, 'JWT_SIGNING_KEY is weak: it repeats a pattern of 4 characters'],
    [{ JWT_SIGNING_KEY: 'a'.repeat(31) + 'b' }, 'JWT_SIGNING_KEY is weak: it has only 2 distinct characters, at least 8 are needed'],
    [
      { JWT_SIGNING_KEY: '0123456789abcdefghijklmnopqrstuv' },
      'JWT_SIGNING_KEY is weak: it is too predictable: about 6 bits of entropy estimated from its characters, at least 64 are needed',
    ],
    [
      { WEBHOOK_SECRET_KEY: Buffer.alloc(32).toString('base64') },
      'WEBHOOK_SECRET_KEY is weak: it is all zero bytes (generate one with `openssl rand -base64 32`)',
    ],
    [{ WEBHOOK_SECRET_KEY: Buffer.alloc(32, 9).toString('base64') }, 'WEBHOOK_SECRET_KEY is weak: it is one byte repeated'],
    [{ METRICS_TOKEN: 'a'.repeat(16) }, 'METRICS_TOKEN is weak: it is one character repeated (generate one with `openssl rand -hex 32`)'],
    [
      { SUPPLY_PROVIDERS: JSON.stringify({ p: { url: 'https://supply.example', callbackSecret: '0'.repeat(16) } }) },
      'SUPPLY_PROVIDERS.p.callbackSecret is weak: it is one character repeated',
    ],
    // proxies outside a private network: whoever is there chooses its own address
    [{ TRUST_PROXY: '2000::/3' }, 'TRUST_PROXY entry "2000::/3" is wider than a private network when APP_ENV is production'],
    [{ TRUST_PROXY: '0.0.0.0/1' }, 'TRUST_PROXY entry "0.0.0.0/1" is wider than a private network when APP_ENV is production'],
    [{ TRUST_PROXY: '64:ff9b::/96' }, 'TRUST_PROXY entry "64:ff9b::/96" is wider than a private network when APP_ENV is production'],
    [{ TRUST_PROXY: '10.0.0.5,11.0.0.0/8' }, 'TRUST_PROXY entry "11.0.0.0/8" is wider than a private network when APP_ENV is production'],
  ])('with %j', (env, message) => {
    const run = refusedStart(env);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(message);
  });

  it('names every weak setting at once, and never prints a secret', () => {
    const run = refusedStart({
      JWT_SIGNING_KEY: 'a'.repeat(32),
      WEBHOOK_SECRET_KEY: Buffer.alloc(32).toString('base64'),
      METRICS_TOKEN: 'a'.repeat(16),
      TRUST_PROXY: '0.0.0.0/1',
    });
    expect(run.status).toBe(1);
    const reasons = run.stderr.split('\n').filter((l) => l.startsWith('  - '));
    expect(reasons.map((l) => l.replace(/:.*/, ''))).toEqual([
      '  - TRUST_PROXY entry "0.0.0.0/1" is wider than a private network when APP_ENV is production',
      '  - JWT_SIGNING_KEY is weak',
      '  - WEBHOOK_SECRET_KEY is weak',
      '  - METRICS_TOKEN is weak',
    ]);
    expect(run.stderr).not.toContain('a'.repeat(16));
  });
});

// A database that does not exist is a mistake in DATABASE_URL: a clear refusal, and nothing created.
(serverUrl() ? describe : describe.skip)('a production start on a database that does not exist', () => {
  it('refuses, naming the database, and creates nothing', async () => {
    const url = new URL(serverUrl()!);
    const name = `gw_mistyped_${process.pid}_${Date.now()}`;
    url.pathname = `/${name}`;
    const run = refusedStart({ DATABASE_URL: url.toString() });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      `DATABASE_URL names database "${name}" on ${url.hostname}:${url.port || '5432'}, which does not exist: the gateway never creates a database (create it, e.g. createdb "${name}", or correct the name)`,
    );
    expect(run.stdout).toBe('');
    const admin = new Client({ connectionString: serverUrl()! });
    await admin.connect();
    try {
      expect((await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount).toBe(0);
    } finally {
      await admin.end();
    }
  });
});

/** Anything that looks like a stack frame or a source location. */
const LEAK = /stacktrace|node_modules|\/src\/|\/dist\/|\.[jt]s:\d+|\bat [\w.<>]+ \(/;

// Production runs on a PostgreSQL server only (the embedded database is refused above): this part needs one.
(serverUrl() ? describe : describe.skip)('a production start (NODE_ENV=production, APP_ENV unset, on the PostgreSQL server)', () => {
  let db: TestDatabase;
  let gw: ChildGateway;
  let ops: string;

  beforeAll(async () => {
    // given a database holding a distributor whose host is mapped but bound to nothing, and an ops token
    db = await openTestDatabase(systemClock, 2);
    await aDistributor(db.orm.em.fork(), ['api.partner.test']);
    ops = (await runInScope({ actor: 'test' }, () => new OpsTokenService(systemClock).issue(db.orm.em.fork(), 'prod-ops', ['admin']))).token;
    // a strong configuration: the keys, and proxies inside private networks
    gw = await startChildGateway({ ...KEYS, DATABASE_URL: db.url!, TRUST_PROXY: '10.0.0.5,192.168.0.0/16,fd00::/8,fe80::/10,loopback' });
  }, 180_000);
  afterAll(async () => {
    if (gw) await killed(gw.child, 'SIGTERM');
    await db?.close();
  });

  it('runs as production, and its banner says production things (docs/deployment.md, "What a production start prints")', () => {
    const out = gw.output();
    expect(out).toContain('Fund distribution gateway (production) is up');
    // no Sandbox, no request to try (surface R answers 403 to an unbound host there), and a sign-in command that runs
    expect(out).not.toMatch(/Apollo Sandbox|try GET/);
    expect(out).toMatch(/GraphQL .*\(ops and surface-O Bearer tokens; no Sandbox\)/);
    expect(out).toMatch(/Console .*\(sign in with an ops token: npm run ops-token -- <name> --role <viewer\|operator\|approver\|admin>\)/);
  });

  it('prints no ops token and no #token= sign-in link', () => {
    expect(gw.output()).not.toMatch(/#token=|Bearer ops_|x-api-secret/);
  });

  it("serves no Apollo landing page, no console source maps, no sign-in link meta tag; the console's CSP connects to itself only", async () => {
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
    const schema = await httpRequest(gw.port, 'POST', '/graphql', {
      body: { query: '{ __schema { types { name } } }' },
      headers: { authorization: `Bearer ${ops}` },
    });
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

  it('binds a host only to sources inside private networks', async () => {
    const bind = (ranges: string[]) =>
      httpRequest(gw.port, 'POST', '/graphql', {
        body: {
          query: 'mutation($r: [String!]) { bindDistributorHost(input: {hostname: "api.partner.test", sourceRanges: $r}) { sourceRanges } }',
          variables: { r: ranges },
        },
        headers: { authorization: `Bearer ${ops}` },
      });
    for (const range of ['0.0.0.0/1', '2000::/3', '64:ff9b::/96', '203.0.113.7']) {
      const refused = await bind(['10.0.0.0/8', range]);
      expect(refused.body.errors?.[0]).toMatchObject({
        message: `sourceRanges entry "${range}" is wider than a private network: outside development a host is bound to private ranges (127.0.0.0/8, 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 169.254.0.0/16, ::1/128, fc00::/7, fe80::/10) or a client certificate`,
        extensions: { code: 'BAD_USER_INPUT' },
      });
    }
    expect((await bind(['127.0.0.0/8', '10.1.0.0/16', 'fd12::/16'])).body).toEqual({
      data: { bindDistributorHost: { sourceRanges: ['127.0.0.0/8', '10.1.0.0/16', 'fd12::/16'] } },
    });
  });

  it('a development start on this database (real data) hands out no credentials', async () => {
    const dev = await startChildGateway({
      APP_ENV: 'development',
      DATABASE_URL: db.url!,
      CHAIN_DATA_DIR: 'none',
      SUPPLY_SIMULATOR: 'false',
      LOG_LEVEL: 'warn',
    });
    try {
      expect(dev.output()).not.toMatch(/#token=|Bearer ops_|x-api-secret/);
      expect(await db.orm.em.fork().count(ApiCredential, {})).toBe(0);
    } finally {
      await killed(dev.child, 'SIGTERM');
    }
  }, 180_000);
});
