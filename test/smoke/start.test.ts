import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { npmStartEnv, startChildGateway } from '../support/child-gateway';
import { httpRequest } from '../support/http';

/**
 * `npm start` on a machine with no database: the built gateway on its embedded PostgreSQL,
 * migrated and seeded, keeps its data across a restart and stops cleanly on SIGTERM.
 */

/** The built gateway on the embedded database in `dataDir`, as `npm start` runs it. */
const start = (dataDir: string) => startChildGateway(npmStartEnv(dataDir));

/** SIGTERM; resolves with the exit code. */
const stop = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });

describe('npm start on the embedded database', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gw-smoke-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  // The first start deploys the demo's tokens on the embedded chain (about 10 s on an idle machine).
  jest.setTimeout(180_000);

  it('starts with demo data, prints the URLs, a console sign-in link (admin) and a second one (approver), an ops token and surface-O credentials, keeps data across a restart, and stops on SIGTERM', async () => {
    const first = await start(dataDir);
    expect(first.output()).toMatch(/GraphQL http:\/\/127\.0\.0\.1:\d+\/graphql/);
    // its own chain, the demo's tokens deployed there at this first start
    expect(first.output()).toContain(`Chain    31337 http://127.0.0.1:`);
    expect(first.output()).toMatch(/Chain {4}31337 http:\/\/127\.0\.0\.1:\d+ {3}\(embedded anvil, state in .*anvil\)/);
    expect(first.output()).toMatch(/Bearer ops_\S+/);
    const health = await httpRequest(first.port, 'GET', '/api/v1/health');
    expect(health.body).toMatchObject({ isError: false, errorMsg: 'NA', data: { status: 'ok', env: 'development' } });
    // the printed console link: the page, and its token signs in as the demo ops user
    const [, consolePath, consoleToken] = /Console http:\/\/127\.0\.0\.1:\d+(\/console\/)#token=(ops_\S+)/.exec(first.output())!;
    const page = await httpRequest(first.port, 'GET', consolePath);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<div id="root"></div>');
    const who = await httpRequest(first.port, 'POST', '/graphql', {
      body: { query: '{ opsTokenName me { roles } }' },
      headers: { authorization: `Bearer ${consoleToken}` },
    });
    expect(who.body).toEqual({ data: { opsTokenName: 'demo-console', me: { roles: ['admin'] } } });
    // and a second principal, approver only, so the demo can approve what the admin requests (four eyes)
    const [, approverToken] = /Console http:\/\/127\.0\.0\.1:\d+\/console\/#token=(ops_\S+) {3}\(signs in as a second ops principal, role approver/.exec(
      first.output(),
    )!;
    const approver = await httpRequest(first.port, 'POST', '/graphql', {
      body: { query: '{ me { principal roles } }' },
      headers: { authorization: `Bearer ${approverToken}` },
    });
    expect(approver.body).toEqual({ data: { me: { principal: 'ops:demo-approver', roles: ['approver'] } } });
    const list = await httpRequest(first.port, 'GET', '/api/v1/funds/shareclass/all', { host: 'localhost' });
    expect(list.body.data.count).toBe(2);
    // surface O with the printed demo key and secret
    const [, apiKey, apiSecret] = /x-api-key (\S+) and x-api-secret (\S+)/.exec(first.output())!;
    const token = await httpRequest(first.port, 'POST', '/api/v1/auth/token', { headers: { 'x-api-key': apiKey, 'x-api-secret': apiSecret } });
    expect(token.body.data).toMatchObject({ tokenType: 'Bearer', expiresIn: 900 });
    const assets = await httpRequest(first.port, 'GET', '/api/v1/assets/shareclass/all', {
      headers: { authorization: `Bearer ${token.body.data.accessToken}` },
    });
    expect(assets.body.data.count).toBe(2);
    const registered = await httpRequest(first.port, 'POST', '/api/v1/investor/register', {
      host: '127.0.0.1',
      body: { distributorId: 'DT000001', externalInvestorId: 'smoke' },
    });
    expect(registered.status).toBe(200);
    expect(await stop(first.child)).toBe(0);

    const second = await start(dataDir);
    // each start hands out fresh demo credentials: the previous ones stop working
    const stale = await httpRequest(second.port, 'POST', '/api/v1/auth/token', { headers: { 'x-api-key': apiKey, 'x-api-secret': apiSecret } });
    expect(stale.status).toBe(401);
    const history = await httpRequest(second.port, 'GET', '/api/v1/funds/shareclass/nav/history?shareClassId=SC000001', { host: 'localhost' });
    expect(history.body.data).toHaveLength(100);
    const again = await httpRequest(second.port, 'POST', '/api/v1/investor/register', {
      host: 'localhost',
      body: { distributorId: 'DT000001', externalInvestorId: 'smoke' },
    });
    // The first registration survived the restart: the sequence moved on.
    expect(Number(again.body.data.investorId.slice(2))).toBeGreaterThan(Number(registered.body.data.investorId.slice(2)));
    expect(await stop(second.child)).toBe(0);
  }, 180_000); // a first development start places the demo orders through the services
});
