import { ChainTransaction } from '../../src/modules/chain/chain-transaction.entity';
import { NavCompensation } from '../../src/modules/correction/nav-compensation.entity';
import { Holding } from '../../src/modules/holding/holding.entity';
import { Nav } from '../../src/modules/nav/nav.entity';
import { Order } from '../../src/modules/order/order.entity';
import { rawRows } from '../../src/persistence/raw-query';
import { approverToken } from '../support/approval.factories';
import { eventually, randomWallet } from '../support/chain';
import { aChainMarket, aWhitelistedWallet, finalOrder, onTheWorkerChain, opsCall } from '../support/chain.factories';
import { aMarket } from '../support/factories';
import { aDealingDateNav, aOneStepOrder } from '../support/one-step.factories';
import { aTwoStepOrder } from '../support/order.factories';

/*
 * A correction repairs what the wrong NAV did (docs/approvals.md "Correcting a NAV", issue 44):
 * a four-eyes `nav_correction` request; on approval the NAV keeps its original close beside the
 * corrected one, orders priced at it and not settled are re-priced, and orders settled at it are
 * compensated on chain when the error is above the share class's tolerance (nothing below it).
 * One gateway and one chain for every case.
 */
jest.setTimeout(600_000);

const CHAIN = '31337';
const PREVIEW = `query($id: ID!, $close: Decimal!) { navCorrectionPreview(navId: $id, close: $close) {
  navId close correctedClose errorBps toleranceBps aboveTolerance
  repricings { orderId flow status navBefore navAfter tokensBefore tokensAfter }
  compensations { orderId wallet tokensMoved tokensDue tokensDifference errorBps action cashAmount } } }`;
const REQUEST = `mutation($id: ID!, $close: Decimal!, $reason: String!) { requestNavCorrection(navId: $id, close: $close, reason: $reason) { id kind status requestedBy } }`;
const APPROVE = `mutation($id: ID!) { approveRequest(id: $id, reason: "checked against the administrator's file") { id status result decidedBy } }`;
const NAV = `query($sc: String!) { liveNav(shareClassId: $sc) { id close originalClose correctedBy correctedAt correctionReason } }`;
const SETTLE = `mutation($id: ID!) { settleOneStepOrder(orderId: $id) { id status } }`;

describe('A NAV correction repairs what the wrong NAV did', () => {
  const world = onTheWorkerChain();

  const approve = async (id: string) => (await world.gw.graphql(APPROVE, { id }, { token: await approverToken(world.gw) })).body;
  const correctionEvents = async (orderId: string) =>
    (
      await rawRows<{ type: string; distributor_id: string; action: string | null }>(
        world.gw.em(),
        `select type, distributor_id, payload->>'action' as action from event where aggregate_id = ? and type like 'order.%' and type <> 'order.transition' order by position`,
        [orderId],
      )
    ).map((e) => ({ type: e.type, distributorId: e.distributor_id, action: e.action }));

  /** Requests the correction as `test-ops` and has `test-approver` approve it; answers the approval. */
  async function correct(navId: string, close: string, reason = 'the administrator struck it with a stale FX rate') {
    const requested = await opsCall(world.gw, REQUEST, { id: navId, close, reason });
    expect(requested.errors).toBeUndefined();
    expect(requested.data.requestNavCorrection).toMatchObject({ kind: 'nav_correction', status: 'requested', requestedBy: 'ops:test-ops' });
    const approved = await approve(requested.data.requestNavCorrection.id);
    expect(approved.errors).toBeUndefined();
    return approved.data.approveRequest;
  }

  it('re-prices an unsettled two-step order (nav, amountTokensEstimated) with a history entry, and keeps the original close on the NAV', async () => {
    const { gw } = world;
    // given a two-step order priced at the live NAV 1.25
    const m = await aMarket(gw.em(), gw.clock.now());
    const order = await aTwoStepOrder(gw, m);
    expect(order).toMatchObject({ nav: '1.25', amountTokensEstimated: '800' });

    // when the preview of a correction to 1.6 is asked for
    const preview = (await opsCall(gw, PREVIEW, { id: m.nav.id, close: '1.6' })).data.navCorrectionPreview;
    // then it shows the order re-priced, and no settled order
    expect(preview).toMatchObject({ navId: m.nav.id, close: '1.25', correctedClose: '1.6', errorBps: '2187.5', toleranceBps: 100, aboveTolerance: true });
    expect(preview.repricings).toEqual([
      { orderId: order.orderId, flow: 'two_step', status: 'created', navBefore: '1.25', navAfter: '1.6', tokensBefore: '800', tokensAfter: '625' },
    ]);
    expect(preview.compensations).toEqual([]);

    // when it is requested and a second principal approves it
    const approved = await correct(m.nav.id, '1.6');
    expect(approved).toMatchObject({ status: 'executed', decidedBy: 'ops:test-approver', result: { originalClose: '1.25', close: '1.6', repriced: 1 } });

    // then the order is priced at the corrected close, with a history entry saying so
    const read = await gw.api('GET', `/orders/${order.orderId}`, { host: m.hostA });
    expect(read.body.data).toMatchObject({ nav: '1.6', amountTokensEstimated: '625', status: 'created' });
    const history = await rawRows<{ status: string; note: string | null }>(
      gw.em(),
      'select status, note from order_status_entry where order_id = ? order by "at"',
      [order.orderId],
    );
    expect(history).toEqual([
      { status: 'created', note: null },
      { status: 'created', note: 're-priced at the corrected NAV 1.6 (was 1.25): the administrator struck it with a stale FX rate' },
    ]);
    // and the NAV keeps its original close beside the correction, who and why
    expect((await opsCall(gw, NAV, { sc: m.shareClass.id })).data.liveNav).toEqual({
      id: m.nav.id,
      close: '1.6',
      originalClose: '1.25',
      correctedBy: 'ops:test-ops',
      correctedAt: expect.any(Number),
      correctionReason: 'the administrator struck it with a stale FX rate',
    });
    // and the order's distributor hears of it by the additive event, not by an order transition
    expect(await correctionEvents(order.orderId)).toEqual([{ type: 'order.repriced', distributorId: m.distributor.id, action: null }]);
  });

  it('compensates a settled one-step order on chain: balanceOf equals the corrected entitlement, and the register follows', async () => {
    const { gw, chain } = world;
    // given a one-step subscription of 1000 settled on chain at its dealing date's NAV 1.25: 800 tokens minted
    const m = await aChainMarket(gw);
    const wallet = randomWallet();
    await aWhitelistedWallet(gw, m.investor.id, wallet);
    const order = await aOneStepOrder(gw, m, { amount: '1000', stage: 'accepted', chainId: CHAIN });
    const nav = await aDealingDateNav(gw, order);
    expect((await opsCall(gw, SETTLE, { id: order.id })).errors).toBeUndefined();
    expect((await finalOrder(gw, order.id)).status).toBe('settled');
    expect(await chain.balanceOf(m.token.contractAddress, wallet)).toBe(800n * 10n ** 6n);

    // when the preview of a correction to 1 is asked for (an error of 2500 bps, above the class's 100)
    const preview = (await opsCall(gw, PREVIEW, { id: nav.id, close: '1' })).data.navCorrectionPreview;
    expect(preview).toMatchObject({ errorBps: '2500', toleranceBps: 100, aboveTolerance: true, repricings: [] });
    expect(preview.compensations).toEqual([
      {
        orderId: order.id,
        wallet: wallet.toLowerCase(),
        tokensMoved: '800',
        tokensDue: '1000',
        tokensDifference: '200',
        errorBps: '2000',
        action: 'mint',
        cashAmount: null,
      },
    ]);

    // when it is requested and approved
    const approved = await correct(nav.id, '1');
    expect(approved.result).toMatchObject({ compensated: { mint: 1, burn: 0, cash: 0, intents: 1 } });

    // then the difference is minted to the investor's own wallet: the wallet holds the corrected entitlement
    await eventually('the compensation booked', async () => {
      const row = await gw.em().findOneOrFail(NavCompensation, { orderId: order.id });
      if (row.status === 'failed') throw new Error(row.failure ?? 'failed');
      return row.status === 'booked' ? row : undefined;
    });
    expect(await chain.balanceOf(m.token.contractAddress, wallet)).toBe(1000n * 10n ** 6n);
    const holding = await gw.em().findOneOrFail(Holding, { investor: m.investor.id, shareClass: m.shareClass.id });
    expect(Number(holding.balance)).toBe(1000);
    // and the order itself stays as it settled; its distributor hears of the compensation
    const settled = await gw.em().findOneOrFail(Order, { id: order.id });
    expect([settled.status, Number(settled.settlementTokens)]).toEqual(['settled', 800]);
    expect(await correctionEvents(order.id)).toEqual([{ type: 'order.compensated', distributorId: m.distributor.id, action: 'mint' }]);
  });

  it('books nothing for an error within the tolerance: the preview says so, and the NAV is corrected alone', async () => {
    const { gw } = world;
    // given a one-step subscription settled at 1.25 (recorded with a transfer hash)
    const m = await aMarket(gw.em(), gw.clock.now());
    const order = await aOneStepOrder(gw, m, { amount: '1000', stage: 'settled' });
    const nav = await gw.em().findOneOrFail(Nav, { shareClass: m.shareClass.id, publishedAt: order.navPublishedAt! });
    const intentsBefore = await gw.em().count(ChainTransaction, {});

    // when the preview of a correction to 1.251 is asked for (an error of 7.99 bps, within 100)
    const preview = (await opsCall(gw, PREVIEW, { id: nav.id, close: '1.251' })).data.navCorrectionPreview;
    expect(preview).toMatchObject({ errorBps: '7.99', toleranceBps: 100, aboveTolerance: false });
    expect(preview.compensations).toEqual([
      expect.objectContaining({ orderId: order.id, tokensMoved: '800', tokensDue: expect.stringMatching(/^799\.360511/), action: null, cashAmount: null }),
    ]);

    // when it is requested and approved
    const approved = await correct(nav.id, '1.251');

    // then the NAV is corrected, and nothing is booked: no compensation, no intent, no event
    expect(approved.result).toMatchObject({ close: '1.251', compensated: { mint: 0, burn: 0, cash: 0, intents: 0 } });
    expect(await gw.em().count(NavCompensation, { orderId: order.id })).toBe(0);
    expect(await gw.em().count(ChainTransaction, {})).toBe(intentsBefore);
    expect(await correctionEvents(order.id)).toEqual([]);
  });

  it('the principal that requested a correction cannot approve it: FORBIDDEN, and the NAV is unchanged', async () => {
    const { gw } = world;
    const m = await aMarket(gw.em(), gw.clock.now());
    const requested = await opsCall(gw, REQUEST, { id: m.nav.id, close: '1.3', reason: 'a typo in the close' });
    const own = await opsCall(gw, APPROVE, { id: requested.data.requestNavCorrection.id });
    expect(own.errors?.[0]).toMatchObject({ message: 'a principal may not approve or reject its own request', extensions: { code: 'FORBIDDEN' } });
    expect((await opsCall(gw, NAV, { sc: m.shareClass.id })).data.liveNav).toMatchObject({ close: '1.25', originalClose: null, correctedBy: null });
  });

  it('a correction without a reason is refused (400), and nothing is requested', async () => {
    const { gw } = world;
    const m = await aMarket(gw.em(), gw.clock.now());
    for (const reason of ['', '   ']) {
      const res = await opsCall(gw, REQUEST, { id: m.nav.id, close: '1.3', reason });
      expect(res.errors?.[0]).toMatchObject({ message: 'reason is required', extensions: { code: 'BAD_USER_INPUT' } });
    }
    const [{ n }] = await rawRows<{ n: string }>(gw.em(), `select count(*)::text as n from approval_request where kind = 'nav_correction'`, []);
    expect(n).toBe('0');
  });
});
