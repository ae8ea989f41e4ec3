import { rawRows } from '../../src/persistence/raw-query';
import { Webhook } from '../../src/modules/webhook/webhook.entity';
import { InvestorWallet } from '../../src/modules/investor/investor.entity';
import { aHolding, aMarket } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { approverToken, REQUEST_HOLDING_ADJUSTMENT, REQUEST_WALLET_RECOVERY } from '../support/approval.factories';
import { eventually, randomWallet, testChains } from '../support/chain';
import { aChainMarket, aWhitelistedWallet, finalOrder, opsCall } from '../support/chain.factories';
import { aOneStepOrder } from '../support/one-step.factories';

/*
 * Four eyes on what moves positions outside an order (docs/approvals.md): one ops principal
 * requests, another approves or rejects; the approved call runs once; a recovery waits
 * RECOVERY_DELAY_SECONDS and its distributor hears of it by webhook, if it subscribed.
 */

jest.setTimeout(240_000);

const APPROVE = `mutation($id: ID!) { approveRequest(id: $id, reason: "ok") { id status result failure decidedBy executeAfter } }`;
const REJECT = `mutation($id: ID!) { rejectRequest(id: $id, reason: "not the investor's request") { id status decidedBy decisionReason } }`;
const HOLDING = `query($u: String!, $s: String!) { holding(userId: $u, shareClassId: $s) { tokenBalance } }`;

describe('Four eyes: approval requests', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ background: true, config: { recoveryDelaySeconds: 3600 }, chains: await testChains() });
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  async function aHeldMarket() {
    const em = gw.em();
    const m = await aMarket(em, gw.clock.now());
    await aHolding(em, m.investor, m.shareClass, '100');
    return m;
  }

  const adjustment = (m: Awaited<ReturnType<typeof aHeldMarket>>, quantity = '25') => ({
    input: { investorId: m.investor.id, shareClassId: m.shareClass.id, quantity, reason: 'transfer in from the previous register' },
  });
  const balance = async (m: Awaited<ReturnType<typeof aHeldMarket>>) =>
    (await gw.graphql(HOLDING, { u: m.investor.id, s: m.shareClass.id }, { token: await gw.opsToken() })).body.data!.holding.tokenBalance;

  it('a holding adjustment runs only when a different principal approves it, exactly once (a second approval: 409)', async () => {
    // given an operator's request
    const m = await aHeldMarket();
    const requested = await gw.graphql(REQUEST_HOLDING_ADJUSTMENT, adjustment(m), { token: await gw.opsToken() });
    const id = requested.body.data!.requestHoldingAdjustment.id;
    expect(requested.body.data!.requestHoldingAdjustment.status).toBe('requested');
    expect(await balance(m)).toBe('100');

    // when the same principal approves its own request, then it is refused and nothing moves
    const own = await gw.graphql(APPROVE, { id }, { token: await gw.opsToken() });
    expect(own.body.errors![0]).toMatchObject({ message: 'a principal may not approve or reject its own request', extensions: { code: 'FORBIDDEN' } });
    expect(await balance(m)).toBe('100');

    // when another principal with the approver role approves it, then it runs in that approval
    const approver = await approverToken(gw);
    const approved = await gw.graphql(APPROVE, { id }, { token: approver });
    expect(approved.body.data!.approveRequest).toMatchObject({ status: 'executed', decidedBy: 'ops:test-approver', result: { tokenBalance: '125' } });
    expect(await balance(m)).toBe('125');

    // and a second approval finds it done
    const again = await gw.graphql(APPROVE, { id }, { token: approver });
    expect(again.body.errors![0]).toMatchObject({ message: `approval request ${id} is already executed`, extensions: { code: 'CONFLICT' } });
    expect(await balance(m)).toBe('125');
  });

  it('an adjustment whose holding changed between request and approval is refused 409 naming the change; the request shows what it binds', async () => {
    // given a request to add 25 to a holding of 100, which shows the holding before and after
    const m = await aHeldMarket();
    const operator = await gw.opsToken();
    const requested = await gw.graphql(
      `mutation($input: HoldingAdjustmentInput!) { requestHoldingAdjustment(input: $input) { id effect { version holdingAdjustment { investorId shareClassId quantity balanceBefore balanceAfter settledAt } } } }`,
      adjustment(m),
      { token: operator },
    );
    const { id, effect } = requested.body.data!.requestHoldingAdjustment;
    expect(effect).toEqual({
      version: 1,
      holdingAdjustment: {
        investorId: m.investor.id,
        shareClassId: m.shareClass.id,
        quantity: '25',
        balanceBefore: '100',
        balanceAfter: '125',
        settledAt: null,
      },
    });

    // when the holding changes before it is approved (another adjustment of -40, asked and approved)
    const approver = await approverToken(gw);
    const other = (await gw.graphql(REQUEST_HOLDING_ADJUSTMENT, adjustment(m, '-40'), { token: operator })).body.data!.requestHoldingAdjustment.id;
    expect((await gw.graphql(APPROVE, { id: other }, { token: approver })).body.data!.approveRequest.status).toBe('executed');
    expect(await balance(m)).toBe('60');

    // then the first is refused, naming what changed, and the holding stays as it is
    const refused = await gw.graphql(APPROVE, { id }, { token: approver });
    expect(refused.body.errors![0]).toMatchObject({
      message: `approval request ${id} no longer does what was requested: the balance of the holding changed from 100 to 60; the balance after the adjustment changed from 125 to 85 since the request`,
      extensions: { code: 'CONFLICT' },
    });
    expect(await balance(m)).toBe('60');
    const [row] = await rawRows<{ status: string }>(gw.em(), 'select status from approval_request where id = ?', [id]);
    expect(row.status).toBe('requested');
    // and the bound effect cannot be rewritten to match the world
    await expect(rawRows(gw.em(), `update approval_request set effect = jsonb_set(effect, '{balanceBefore}', '"60"') where id = ?`, [id])).rejects.toThrow(
      /approval_request.effect is bound at request: UPDATE refused/,
    );
  });

  it('a request made before requests bound their effect is refused at approval, asking for a new one', async () => {
    const m = await aHeldMarket();
    const id = (await gw.graphql(REQUEST_HOLDING_ADJUSTMENT, adjustment(m), { token: await gw.opsToken() })).body.data!.requestHoldingAdjustment.id;
    // (as Migration20261129400000 leaves a request that was open when it ran)
    await rawRows(gw.em(), `alter table approval_request disable trigger approval_request_effect_bound`, []);
    await rawRows(gw.em(), `update approval_request set effect = null where id = ?`, [id]);
    await rawRows(gw.em(), `alter table approval_request enable trigger approval_request_effect_bound`, []);
    const refused = await gw.graphql(APPROVE, { id }, { token: await approverToken(gw) });
    expect(refused.body.errors![0]).toMatchObject({
      message: `approval request ${id} does not bind what it will do (it was made before requests did): reject it and request it again`,
      extensions: { code: 'CONFLICT' },
    });
    expect(await balance(m)).toBe('100');
  });

  it('a rejected request changes nothing and can no longer be approved', async () => {
    const m = await aHeldMarket();
    const id = (await gw.graphql(REQUEST_HOLDING_ADJUSTMENT, adjustment(m, '-40'), { token: await gw.opsToken() })).body.data!.requestHoldingAdjustment.id;
    const approver = await approverToken(gw);
    const rejected = await gw.graphql(REJECT, { id }, { token: approver });
    expect(rejected.body.data!.rejectRequest).toEqual({ id, status: 'rejected', decidedBy: 'ops:test-approver', decisionReason: "not the investor's request" });
    expect(await balance(m)).toBe('100');
    expect((await gw.graphql(APPROVE, { id }, { token: approver })).body.errors![0]).toMatchObject({
      message: `approval request ${id} is already rejected`,
      extensions: { code: 'CONFLICT' },
    });
    expect(await balance(m)).toBe('100');
  });

  it('a recovery waits RECOVERY_DELAY_SECONDS after approval, then runs once as the approver, checking the world again; its distributor hears of each step only on webhooks registered for that type', async () => {
    // given an investor holding 800 tokens on chain in a wallet
    const m = await aChainMarket(gw);
    await aWhitelistedWallet(gw, m.investor.id, randomWallet());
    const order = await aOneStepOrder(gw, m, { amount: '1000', stage: 'accepted', chainId: '31337' });
    await opsCall(gw, `mutation($id: ID!) { settleOneStepOrder(orderId: $id) { status } }`, { id: order.id });
    expect((await finalOrder(gw, order.id)).status).toBe('settled');
    // and a distributor with one webhook for recovery requests and one for an order event
    const em = gw.em();
    em.create(Webhook, {
      id: 'wh_recovery',
      distributor: m.distributor.id,
      eventType: 'wallet.recovery_requested',
      endpointUrl: 'https://hooks.example/recovery',
      secretCipher: 'unused',
    } as never);
    em.create(Webhook, {
      id: 'wh_orders',
      distributor: m.distributor.id,
      eventType: 'order.accepted',
      endpointUrl: 'https://hooks.example/orders',
      secretCipher: 'unused',
    } as never);
    await em.flush();

    // when ops request a recovery and another principal approves it (the clock stopped, to count the delay)
    gw.clock.set(gw.clock.now());
    const input = { investorId: m.investor.id, chainId: '31337', newAddress: '0x2222222222222222222222222222222222222222', reason: 'key lost' };
    const id = (await gw.graphql(REQUEST_WALLET_RECOVERY, { input }, { token: await gw.opsToken() })).body.data!.requestWalletRecovery.id;
    const approved = await gw.graphql(APPROVE, { id }, { token: await approverToken(gw) });

    // then it waits: approved, due an hour later, and nothing ran
    expect(approved.body.data!.approveRequest).toMatchObject({ status: 'approved', executeAfter: gw.clock.now().getTime() + 3600_000, result: null });
    expect(await gw.gateway.services.approval.runDue(gw.em())).toBe(0);
    gw.clock.set(new Date(gw.clock.now().getTime() + 3599_000));
    expect(await gw.gateway.services.approval.runDue(gw.em())).toBe(0);

    // and once due it runs exactly once, against the world as it is then: here the wallet it would
    // recover was removed during the delay, so it fails naming that, and nothing moves
    const removed = await opsCall(gw, `mutation($i: RemoveInvestorWalletInput!) { removeInvestorWallet(input: $i) { status } }`, {
      i: { investorId: m.investor.id, chainId: '31337', reason: 'frozen' },
    });
    expect(removed.errors).toBeUndefined();
    gw.clock.set(new Date(gw.clock.now().getTime() + 1_000));
    expect(await gw.gateway.services.approval.runDue(gw.em())).toBe(1);
    expect(await gw.gateway.services.approval.runDue(gw.em())).toBe(0);
    const [row] = await rawRows<{ status: string; failure: string }>(gw.em(), 'select status, failure from approval_request where id = ?', [id]);
    expect(row).toEqual({
      status: 'failed',
      failure: `approval request ${id} no longer does what was requested: investor ${m.investor.id} has no wallet in use on chain 31337`,
    });
    expect(await gw.em().fork().count(InvestorWallet, { address: input.newAddress })).toBe(0);

    // and the distributor's recovery webhook got the request; its order webhook got nothing of it
    const deliveries = await eventually(
      'the recovery request delivered',
      async () => {
        const rows = await rawRows<{ webhook_id: string; event_type: string; body: string }>(
          gw.em(),
          'select webhook_id, event_type, body from webhook_delivery order by id',
          [],
        );
        return rows.length ? rows : null;
      },
      10_000,
    );
    expect(deliveries.map((d) => [d.webhook_id, d.event_type])).toEqual([['wh_recovery', 'wallet.recovery_requested']]);
    expect(JSON.parse(deliveries[0].body)).toMatchObject({
      event_type: 'wallet.recovery_requested',
      data: { requestId: id, investorId: m.investor.id, chainId: '31337', newAddress: input.newAddress, status: 'requested' },
    });
  });

  it('the actor is the credential: a lying x-actor is kept only as a note, over HTTP', async () => {
    const m = await aHeldMarket();
    const id = (await gw.graphql(REQUEST_HOLDING_ADJUSTMENT, adjustment(m), { token: await gw.opsToken(), headers: { 'x-actor': 'someone-else' } })).body.data!
      .requestHoldingAdjustment.id;
    await gw.graphql(APPROVE, { id }, { token: await approverToken(gw), headers: { 'x-actor': 'test-ops' } });
    const [req] = await rawRows<{ requested_by: string; decided_by: string }>(gw.em(), 'select requested_by, decided_by from approval_request where id = ?', [
      id,
    ]);
    expect(req).toEqual({ requested_by: 'ops:test-ops', decided_by: 'ops:test-approver' });
    const [move] = await rawRows<{ created_by: string; created_by_principal: string }>(
      gw.em(),
      "select created_by, created_by_principal from holding_movement where source = 'adjustment'",
      [],
    );
    expect(move).toEqual({ created_by: 'test-ops', created_by_principal: 'ops:test-approver' });
  });

  it('every ops mutation is in the append-only audit log, with its principal and outcome; the database refuses UPDATE and DELETE of it', async () => {
    const m = await aHeldMarket();
    const id = (await gw.graphql(REQUEST_HOLDING_ADJUSTMENT, adjustment(m), { token: await gw.opsToken() })).body.data!.requestHoldingAdjustment.id;
    await gw.graphql(APPROVE, { id }, { token: await gw.opsToken() }); // refused: its own
    const issued = await gw.graphql(`mutation { issueOpsToken(name: "desk-2", roles: ["viewer"]) { token } }`, {}, { token: await gw.opsToken() });
    expect(issued.body.data!.issueOpsToken.token).toMatch(/^ops_/);

    const log = await gw.graphql(`{ auditLog { principal operation arguments outcome errorCode } }`, {}, { token: await approverToken(gw) });
    expect(log.body.data!.auditLog).toEqual([
      { principal: 'ops:test-ops', operation: 'issueOpsToken', arguments: { name: 'desk-2', roles: ['viewer'] }, outcome: 'ok', errorCode: null },
      { principal: 'ops:test-ops', operation: 'approveRequest', arguments: { id, reason: 'ok' }, outcome: 'error', errorCode: 'FORBIDDEN' },
      { principal: 'ops:test-ops', operation: 'requestHoldingAdjustment', arguments: adjustment(m), outcome: 'ok', errorCode: null },
    ]);
    // a viewer may not read it
    const viewer = await gw.opsTokenAs('desk-3', ['viewer']);
    expect((await gw.graphql(`{ auditLog { id } }`, {}, { token: viewer })).body.errors![0]).toMatchObject({
      message: 'the approver role is required',
      extensions: { code: 'FORBIDDEN' },
    });

    await expect(rawRows(gw.em(), `update audit_log set principal = 'ops:nobody'`, [])).rejects.toThrow(/audit_log is append-only: UPDATE refused/);
    await expect(rawRows(gw.em(), `delete from audit_log`, [])).rejects.toThrow(/audit_log is append-only: DELETE refused/);
  });
});
