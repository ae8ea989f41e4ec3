import { rawRows } from '../../src/persistence/raw-query';
import type { SupplySimulator } from '../../src/supply/simulator';
import { aMarket } from '../support/factories';
import { approverToken } from '../support/approval.factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aSimulator, aTwoStepOrder, providersFor } from '../support/order.factories';

/*
 * A jump needs a second person (docs/approvals.md "NAVs outside their tolerance", CSSF Circular
 * 24/856): a NAV within its share class's tolerance of the previous confirmed NAV is live at once;
 * one outside it waits, pricing nothing and announced to nobody, until a different principal with
 * `approver` confirms it (live then, with its original publishedAt) or rejects it (never live).
 */

const PUBLISH = `mutation($input: PublishNavInput!) {
  publishNav(input: $input) { entryId close publishedAt status struckBy confirmedBy approvalRequestId }
}`;
const LIVE = `query($sc: String!) { liveNav(shareClassId: $sc) { entryId close publishedAt status struckBy confirmedBy approvalRequestId } }`;
const INBOX = `{ approvalRequests(status: requested) { id kind arguments reason requestedBy status } }`;
const APPROVE = `mutation($id: ID!) { approveRequest(id: $id, reason: "checked against the administrator's file") { id status result decidedBy } }`;
const REJECT = `mutation($id: ID!) { rejectRequest(id: $id, reason: "a decimal point slipped") { id status } }`;
const UPDATE_CLASS = `mutation($id: ID!, $input: UpdateShareClassInput!) { updateShareClass(id: $id, input: $input) { navAssetClass navToleranceBps } }`;

describe('NAV tolerance: a jump needs a second person', () => {
  let gw: TestGateway;
  let sim: SupplySimulator;
  const NOW = new Date(Date.UTC(2030, 5, 3, 9, 30, 0, 123));
  // aMarket's NAV, 1.25, was struck a minute before NOW.
  const STRUCK = NOW.getTime() - 30_000;

  beforeAll(async () => {
    sim = await aSimulator();
    gw = await startTestGateway({ supply: providersFor(sim) });
  });
  afterAll(async () => {
    await gw.close();
    await sim.stop();
  });
  beforeEach(async () => {
    await gw.reset();
    gw.clock.set(NOW);
  });

  async function market() {
    const m = await aMarket(gw.em(), NOW);
    sim.addFund(m.shareClass.fund.id);
    return { ...m, wallet: `0x${m.investor.id.toLowerCase().padStart(40, 'e')}` };
  }
  const asOps = async (query: string, variables?: Record<string, unknown>) => gw.graphql(query, variables, { token: await gw.opsToken() });
  const asApprover = async (query: string, variables?: Record<string, unknown>) => gw.graphql(query, variables, { token: await approverToken(gw) });
  const publish = (sc: string, close: string, publishedAt = STRUCK) => asOps(PUBLISH, { input: { shareClassId: sc, close, publishedAt } });
  const liveClose = async (m: { shareClass: { id: string }; hostA: string }) => ({
    graphql: (await asOps(LIVE, { sc: m.shareClass.id })).body.data!.liveNav.close as string,
    rest: (await gw.api('GET', `/funds/shareclass/nav/live?shareClassId=${m.shareClass.id}`, { host: m.hostA })).body.data.close as string,
  });
  const restHistory = async (m: { shareClass: { id: string }; hostA: string }) =>
    ((await gw.api('GET', `/funds/shareclass/nav/history?shareClassId=${m.shareClass.id}`, { host: m.hostA })).body.data as { close: string }[]).map(
      (n) => n.close,
    );
  const announced = async () =>
    (await rawRows<{ close: string }>(gw.em(), `select payload->>'close' as close from event where type = 'nav.published' order by position`, [])).map(
      (e) => e.close,
    );

  it('a 90% fall is pending: not live, not in history, pricing no order, announced to nobody, until a second principal confirms it', async () => {
    // given a share class whose confirmed NAV is 1.25 (tolerance: `other`, 100 bps)
    const m = await market();

    // when one principal publishes 0.125
    const published = await publish(m.shareClass.id, '0.125');

    // then it is pending, struck by that principal, held by a nav_confirmation request with the move in percent
    const pending = published.body.data!.publishNav;
    expect(pending).toEqual({
      entryId: '20300603092930',
      close: '0.125',
      publishedAt: STRUCK,
      status: 'pending',
      struckBy: 'ops:test-ops',
      confirmedBy: null,
      approvalRequestId: expect.stringMatching(/^\d+$/),
    });
    const inbox = (await asOps(INBOX)).body.data!.approvalRequests;
    expect(inbox).toEqual([
      {
        id: pending.approvalRequestId,
        kind: 'nav_confirmation',
        status: 'requested',
        requestedBy: 'ops:test-ops',
        arguments: expect.objectContaining({ shareClassId: m.shareClass.id, close: '0.125', previousClose: '1.25', movePercent: '-90', toleranceBps: 100 }),
        reason: expect.stringContaining('moves -90% against the confirmed 1.25'),
      },
    ]);
    // and the live NAV (GraphQL and REST) and the history are the confirmed one's; nothing was announced
    expect(await liveClose(m)).toEqual({ graphql: '1.25', rest: '1.25' });
    expect(await restHistory(m)).toEqual(['1.25']);
    expect(await announced()).toEqual([]);

    // and a two-step order placed meanwhile is priced at the confirmed 1.25
    const order = await aTwoStepOrder(gw, m);
    expect(order).toMatchObject({ nav: '1.25', amountTokensEstimated: '800' });

    // when the principal that struck it confirms it, then it is refused and nothing changes
    const own = await asOps(APPROVE, { id: pending.approvalRequestId });
    expect(own.body.errors![0]).toMatchObject({ message: 'a principal may not approve or reject its own request', extensions: { code: 'FORBIDDEN' } });
    expect(await liveClose(m)).toEqual({ graphql: '1.25', rest: '1.25' });

    // when a second principal with `approver` confirms it
    const approved = await asApprover(APPROVE, { id: pending.approvalRequestId });
    expect(approved.body.data!.approveRequest).toMatchObject({
      status: 'executed',
      decidedBy: 'ops:test-approver',
      result: { close: '0.125', publishedAt: STRUCK },
    });

    // then it is live with its original publishedAt, records both principals, and is announced now, once
    expect((await asOps(LIVE, { sc: m.shareClass.id })).body.data!.liveNav).toEqual({
      entryId: '20300603092930',
      close: '0.125',
      publishedAt: STRUCK,
      status: 'confirmed',
      struckBy: 'ops:test-ops',
      confirmedBy: 'ops:test-approver',
      approvalRequestId: pending.approvalRequestId,
    });
    expect(await liveClose(m)).toEqual({ graphql: '0.125', rest: '0.125' });
    expect(await restHistory(m)).toEqual(['1.25', '0.125']);
    expect(await announced()).toEqual(['0.125']);
    // and the next order is priced at it
    expect(await aTwoStepOrder(gw, m)).toMatchObject({ nav: '0.125', amountTokensEstimated: '8000' });
  });

  it('an ordinary move is confirmed and live at once, and announced; the tolerance is the asset class default or the class own', async () => {
    // given a share class at 1.25, `other` (100 bps)
    const m = await market();
    expect((await asOps(UPDATE_CLASS, { id: m.shareClass.id, input: {} })).body.data!.updateShareClass).toEqual({
      navAssetClass: 'other',
      navToleranceBps: 100,
    });

    // when a NAV moves 0.4% (1.255), then it is live at once, struck by its publisher, confirmed by nobody else
    const ordinary = (await publish(m.shareClass.id, '1.255')).body.data!.publishNav;
    expect(ordinary).toMatchObject({ status: 'confirmed', struckBy: 'ops:test-ops', confirmedBy: null, approvalRequestId: null });
    expect(await liveClose(m)).toEqual({ graphql: '1.255', rest: '1.255' });
    expect(await announced()).toEqual(['1.255']);

    // when the class is a money market fund (20 bps), then the same 0.4% move waits for a second principal
    expect((await asOps(UPDATE_CLASS, { id: m.shareClass.id, input: { navAssetClass: 'money_market' } })).body.data!.updateShareClass).toEqual({
      navAssetClass: 'money_market',
      navToleranceBps: 20,
    });
    expect((await publish(m.shareClass.id, '1.26002', STRUCK + 1_000)).body.data!.publishNav.status).toBe('pending');
    expect(await liveClose(m)).toEqual({ graphql: '1.255', rest: '1.255' });

    // when the class sets its own tolerance of 5%, then a 3% move is live at once
    expect((await asOps(UPDATE_CLASS, { id: m.shareClass.id, input: { navToleranceBps: 500 } })).body.data!.updateShareClass).toEqual({
      navAssetClass: 'money_market',
      navToleranceBps: 500,
    });
    expect((await publish(m.shareClass.id, '1.29265', STRUCK + 2_000)).body.data!.publishNav.status).toBe('confirmed');
    expect(await liveClose(m)).toEqual({ graphql: '1.29265', rest: '1.29265' });

    // and a tolerance outside 0 to 10000 bps, or an unknown asset class, is refused
    const wrong = await asOps(UPDATE_CLASS, { id: m.shareClass.id, input: { navToleranceBps: 10_001 } });
    expect(wrong.body.errors![0]).toMatchObject({ message: 'navToleranceBps must be an integer from 0 to 10000', extensions: { code: 'BAD_USER_INPUT' } });
    const unknown = await asOps(UPDATE_CLASS, { id: m.shareClass.id, input: { navAssetClass: 'crypto' } });
    expect(unknown.body.errors![0].extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
  });

  it('a rejected NAV is never live; the entry can be struck again, and one entry waits at most once', async () => {
    // given a pending 90% rise
    const m = await market();
    const pending = (await publish(m.shareClass.id, '2.375')).body.data!.publishNav;
    expect(pending.status).toBe('pending');
    // the same entry cannot wait twice
    const twice = await publish(m.shareClass.id, '2.3');
    expect(twice.body.errors![0]).toMatchObject({
      message: `a NAV entry 20300603092930 already awaits confirmation for this share class (approval request ${pending.approvalRequestId})`,
      extensions: { code: 'CONFLICT' },
    });

    // when a second principal rejects it
    expect((await asApprover(REJECT, { id: pending.approvalRequestId })).body.data!.rejectRequest).toEqual({
      id: pending.approvalRequestId,
      status: 'rejected',
    });

    // then it never becomes live, is in no history, was never announced, and cannot be approved afterwards
    expect(await liveClose(m)).toEqual({ graphql: '1.25', rest: '1.25' });
    expect(await restHistory(m)).toEqual(['1.25']);
    expect(await announced()).toEqual([]);
    const late = await asApprover(APPROVE, { id: pending.approvalRequestId });
    expect(late.body.errors![0]).toMatchObject({ extensions: { code: 'CONFLICT' } });
    expect(await liveClose(m)).toEqual({ graphql: '1.25', rest: '1.25' });

    // and the corrected NAV for that time is struck again, within the tolerance, live at once
    expect((await publish(m.shareClass.id, '1.2375')).body.data!.publishNav).toMatchObject({ status: 'confirmed', close: '1.2375' });
    expect(await liveClose(m)).toEqual({ graphql: '1.2375', rest: '1.2375' });
  });

  it('a confirmation binds the move the approver saw: once another NAV was confirmed before it, approving it is refused', async () => {
    // given a pending 90% rise against 1.25
    const m = await market();
    const pending = (await publish(m.shareClass.id, '2.375')).body.data!.publishNav;
    // when a NAV within the tolerance is confirmed between the two
    expect((await publish(m.shareClass.id, '1.2501', STRUCK - 10_000)).body.data!.publishNav.status).toBe('confirmed');
    // then approving the pending one is refused, and it stays waiting, not live
    const approved = await asApprover(APPROVE, { id: pending.approvalRequestId });
    expect(approved.body.errors![0]).toMatchObject({
      message: 'NAV entry 20300603092930 moved against 20300603092900, which is no longer the confirmed NAV before it: reject it and publish it again',
      extensions: { code: 'CONFLICT' },
    });
    expect(await liveClose(m)).toEqual({ graphql: '1.2501', rest: '1.2501' });
    expect((await asOps(INBOX)).body.data!.approvalRequests).toEqual([expect.objectContaining({ id: pending.approvalRequestId, status: 'requested' })]);
  });

  it("a class's first NAV has nothing to move against: it is confirmed at once", async () => {
    const m = await market();
    await gw.em().getConnection().execute('delete from nav');
    expect((await publish(m.shareClass.id, '100')).body.data!.publishNav).toMatchObject({ status: 'confirmed', confirmedBy: null });
    expect(await liveClose(m)).toEqual({ graphql: '100', rest: '100' });
  });
});
