import WebSocket from 'ws';
import { runInScope } from '../../src/common/request-scope';
import { WS_CLOSE } from '../../src/transports/websocket/websocket';
import { rawRows } from '../../src/persistence/raw-query';
import { approverToken } from '../support/approval.factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { serverUrl } from '../support/database';

/**
 * Issue 43, "a principal is a person, not a string" and "credentials end when they are ended":
 * an admin gets no second principal of its own making to approve with, principals with a part in
 * four eyes are created (and their roles changed, their tokens reset) only with a second admin,
 * a revocation that answered leaves no token of that principal working whatever rotation raced it,
 * and a revoked credential's socket closes at once and runs nothing more.
 */
const ISSUE = `mutation($name: String!, $roles: [String!]!) { issueOpsToken(name: $name, roles: $roles) { name token roles } }`;
const ME = '{ me { principal name roles } }';
const APPROVE = `mutation($id: ID!) { approveRequest(id: $id, reason: "checked") { id status decidedBy tokenPart result } }`;
const REQUEST_PRINCIPAL = `mutation($name: String!, $roles: [String!]!) { requestOpsPrincipal(name: $name, roles: $roles, reason: "joins the desk") { id status requestedBy tokenPart arguments } }`;
const REQUEST_ROLES = `mutation($name: String!, $roles: [String!]!) { requestOpsRoles(name: $name, roles: $roles, reason: "moves desk") { id status } }`;
const REQUEST_RESET = `mutation($name: String!) { requestOpsTokenReset(name: $name, reason: "lost laptop") { id status tokenPart } }`;

describe('ops principals: one person, one principal; four eyes on who may act; credentials end when ended', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    // A socket's credential is re-checked on its interval only every minute: a close within a
    // second is the revocation's own doing.
    gw = await startTestGateway({ websocketRecheckMs: 60_000 });
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  const as = (token: string, query: string, variables: Record<string, unknown> = {}) => gw.graphql(query, variables, { token });
  const codeOf = (res: { body: any }) => res.body.errors?.[0]?.extensions?.code as string | undefined;
  /** A second admin, a person of its own (break-glass, as the `ops-token` script makes one). */
  const secondAdmin = () => gw.opsTokenAs('second-admin', ['admin']);
  const principalCount = async (name: string) => (await rawRows<{ n: string }>(gw.em(), 'select count(*) as n from ops_principal where name = ?', [name]))[0].n;

  describe('an admin cannot make itself a second principal to approve its own requests with', () => {
    it('a new name with a role that takes part in four eyes is refused: it is asked for, and another admin approves', async () => {
      for (const roles of [['approver'], ['operator'], ['admin']]) {
        const res = await as(await gw.opsToken(), ISSUE, { name: 'shadow-approver', roles });
        expect(codeOf(res)).toBe('FORBIDDEN');
        expect(res.body.errors![0].message).toContain('requestOpsPrincipal');
      }
      expect(await principalCount('shadow-approver')).toBe('0');
      // a viewer decides nothing, asks for nothing: one admin may create it
      const viewer = await as(await gw.opsToken(), ISSUE, { name: 'Auditor ', roles: ['viewer'] });
      expect(viewer.body.data.issueOpsToken).toMatchObject({ name: 'auditor', roles: ['viewer'] });
    });

    it('a case (or width) variant of an existing name is the same principal: CONFLICT, saying how a lost token is reset', async () => {
      await gw.opsToken(); // test-ops
      for (const name of ['TEST-OPS', ' Test-Ops', 'ＴＥＳＴ-ＯＰＳ']) {
        const res = await as(await gw.opsToken(), ISSUE, { name, roles: ['viewer'] });
        expect(codeOf(res)).toBe('CONFLICT');
        expect(res.body.errors![0].message).toBe(
          'ops principal test-ops already exists: a credential is issued once to its own principal; a lost token is reset by requestOpsTokenReset(name: "test-ops"), which another admin approves',
        );
      }
    });

    it("the real approver's name is refused, and the approver's own token keeps working as the only one", async () => {
      const approver = await approverToken(gw);
      const res = await as(await gw.opsToken(), ISSUE, { name: 'test-approver', roles: ['viewer'] });
      expect(codeOf(res)).toBe('CONFLICT');
      expect((await as(approver, ME)).body.data.me).toEqual({ principal: 'ops:test-approver', name: 'test-approver', roles: ['approver'] });
      expect(
        (await rawRows(gw.em(), 'select t.id from ops_token t join ops_principal p on p.id = t.principal_id where p.name = ?', ['test-approver'])).length,
      ).toBe(1);
    });

    it('the database keeps names folded and unique, whatever writes them', async () => {
      await gw.opsToken();
      const insert = (name: string) =>
        gw.em().execute(`insert into ops_principal (name, roles, created_at, created_by) values (?, '{approver}', now(), 'sql')`, [name]);
      await expect(insert('test-ops')).rejects.toThrow(/ops_principal_name_unique/);
      await expect(insert('TEST-OPS')).rejects.toThrow(/ops_principal_name_normalised/);
      await expect(insert(' padded')).rejects.toThrow(/ops_principal_name_normalised/);
    });
  });

  describe('four eyes on principals', () => {
    it("a principal with approver is created only when a different admin approves; the token is the two admins' parts joined", async () => {
      // given one admin asking
      const asked = await as(await gw.opsToken(), REQUEST_PRINCIPAL, { name: 'Carol', roles: ['approver'] });
      const request = asked.body.data.requestOpsPrincipal;
      expect(request).toMatchObject({ status: 'requested', requestedBy: 'ops:test-ops', arguments: { name: 'carol', roles: ['approver'] } });
      expect(request.tokenPart).toMatch(/^ops_[A-Za-z0-9_-]{43}\.$/);
      expect(JSON.stringify(request.arguments)).not.toContain(request.tokenPart.slice(4, 47));
      // then neither the same admin, nor an approver that is no admin, decides it
      const own = await as(await gw.opsToken(), APPROVE, { id: request.id });
      expect(codeOf(own)).toBe('FORBIDDEN');
      expect(own.body.errors![0].message).toBe('a principal may not approve or reject its own request');
      const notAdmin = await as(await approverToken(gw), APPROVE, { id: request.id });
      expect(codeOf(notAdmin)).toBe('FORBIDDEN');
      expect(notAdmin.body.errors![0].message).toBe('the admin role is required');
      expect(await principalCount('carol')).toBe('0');
      // when a second admin approves
      const approved = (await as(await secondAdmin(), APPROVE, { id: request.id })).body.data.approveRequest;
      expect(approved).toMatchObject({ status: 'executed', decidedBy: 'ops:second-admin', result: { name: 'carol', roles: ['approver'] } });
      expect(approved.tokenPart).toMatch(/^[A-Za-z0-9_-]{43}$/);
      // then the joined parts are carol's token, and neither part alone is anything
      expect((await as(request.tokenPart + approved.tokenPart, ME)).body.data.me).toEqual({ principal: 'ops:carol', name: 'carol', roles: ['approver'] });
      expect((await as(request.tokenPart.slice(0, -1), ME)).status).toBe(401);
      expect((await as(`ops_${approved.tokenPart}`, ME)).status).toBe(401);
      // and neither part is kept anywhere the gateway answers from
      const stored = (await as(await gw.opsToken(), `{ approvalRequest(id: "${request.id}") { tokenPart arguments result } }`)).body.data.approvalRequest;
      expect(stored.tokenPart).toBeNull();
      expect(JSON.stringify(stored)).not.toContain(approved.tokenPart);
    });

    it("a change of roles needs a second admin, never the changed principal, and holds at once for that principal's tokens", async () => {
      const dave = await gw.opsTokenAs('dave', ['operator']);
      const daveAdmin = await gw.opsTokenAs('dave-admin', ['admin']);
      const request = (await as(await gw.opsToken(), REQUEST_ROLES, { name: 'DAVE', roles: ['approver', 'operator'] })).body.data.requestOpsRoles;
      expect(codeOf(await as(await gw.opsToken(), APPROVE, { id: request.id }))).toBe('FORBIDDEN');
      expect((await as(dave, ME)).body.data.me.roles).toEqual(['operator']);
      // an admin may not approve a change of its own roles either
      const own = (await as(await gw.opsToken(), REQUEST_ROLES, { name: 'dave-admin', roles: ['viewer'] })).body.data.requestOpsRoles;
      const refused = await as(daveAdmin, APPROVE, { id: own.id });
      expect(refused.body.errors![0]).toMatchObject({
        message: 'a principal may not approve a change of its own roles or token',
        extensions: { code: 'FORBIDDEN' },
      });

      expect((await as(await secondAdmin(), APPROVE, { id: request.id })).body.data.approveRequest.status).toBe('executed');
      expect((await as(dave, ME)).body.data.me.roles).toEqual(['approver', 'operator']);
    });

    it('a lost token is reset through a request another admin approves: the old tokens end, the joined parts work', async () => {
      const erin = await gw.opsTokenAs('erin', ['operator']);
      const asked = (await as(await gw.opsToken(), REQUEST_RESET, { name: 'erin' })).body.data.requestOpsTokenReset;
      expect((await as(erin, ME)).status).toBe(200);
      const approved = (await as(await secondAdmin(), APPROVE, { id: asked.id })).body.data.approveRequest;
      expect(approved.status).toBe('executed');
      expect((await as(erin, ME)).status).toBe(401);
      expect((await as(asked.tokenPart + approved.tokenPart, ME)).body.data.me).toEqual({ principal: 'ops:erin', name: 'erin', roles: ['operator'] });
    });
  });

  it('100 revokes racing rotations: once a revoke answered, no token of the principal works', async () => {
    const admin = await gw.opsToken();
    let rotatedFirst = 0;
    for (let trial = 0; trial < 100; trial++) {
      const { token } = await runInScope({ actor: 'test' }, () => gw.gateway.services.opsToken.bootstrap(gw.em(), 'racer', ['viewer'], 'test'));
      const [revoked, rotated] = await Promise.all([
        as(admin, 'mutation { revokeOpsToken(name: "racer") }'),
        as(token, 'mutation { rotateOpsToken { token } }'),
      ]);
      expect(revoked.body.errors).toBeUndefined();
      expect(revoked.body.data.revokeOpsToken).toBeGreaterThanOrEqual(1);
      const fresh = rotated.body.data?.rotateOpsToken?.token as string | undefined;
      if (fresh) rotatedFirst++;
      for (const t of [token, fresh].filter((t): t is string => !!t)) expect((await as(t, '{ opsTokenName }')).status).toBe(401);
      const live = await rawRows(
        gw.em(),
        'select t.id from ops_token t join ops_principal p on p.id = t.principal_id where p.name = ? and t.revoked_at is null',
        ['racer'],
      );
      expect(live).toEqual([]);
    }
    // both orders happened (a rotation that took the lock first, and one refused after the revoke);
    // the embedded database serves one statement at a time, so there the revoke always goes first
    if (serverUrl()) expect(rotatedFirst).toBeGreaterThan(0);
  }, 180_000);

  it('a revoked credential: its open socket closes at once, and a mutation sent on it after the revoke answered does not run', async () => {
    const token = await gw.opsTokenAs('socketeer', ['admin']);
    const socket = new WebSocket(`ws://127.0.0.1:${gw.port}/graphql`, 'graphql-transport-ws');
    const received: any[] = [];
    socket.on('message', (data: Buffer) => received.push(JSON.parse(data.toString('utf8'))));
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    await new Promise((resolve) => socket.once('open', resolve));
    const send = (message: unknown) => socket.send(JSON.stringify(message), () => undefined);
    send({ type: 'connection_init', payload: { Authorization: `Bearer ${token}` } });
    await until(() => received.some((m) => m.type === 'connection_ack'));
    // given an open subscription
    send({ id: '1', type: 'subscribe', payload: { query: 'subscription { approvalChanged { requestId status } }' } });
    await new Promise((r) => setTimeout(r, 150));

    // when another admin revokes the credential
    const revoked = await as(await gw.opsToken(), 'mutation { revokeOpsToken(name: "socketeer") }');
    const answeredAt = Date.now();
    expect(revoked.body.data.revokeOpsToken).toBe(1);
    // and a mutation is sent on the socket right after
    send({ id: '2', type: 'subscribe', payload: { query: 'mutation { issueOpsToken(name: "after-revoke", roles: ["viewer"]) { token } }' } });

    // then the socket closes at once (its interval check is a minute away)
    expect(await closed).toBe(WS_CLOSE.credentialEnded);
    expect(Date.now() - answeredAt).toBeLessThan(2_000);
    // and the mutation did not run
    expect(received.filter((m) => m.id === '2' && m.type === 'next' && m.payload.data)).toEqual([]);
    expect(await principalCount('after-revoke')).toBe('0');
    expect(await rawRows(gw.em(), `select 1 from audit_log where operation = 'issueOpsToken' and principal = ?`, ['ops:socketeer'])).toEqual([]);
  });
});

async function until(done: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}
