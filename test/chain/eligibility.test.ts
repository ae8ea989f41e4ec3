import { Investor } from '../../src/modules/investor/investor.entity';
import { Order } from '../../src/modules/order/order.entity';
import { ChainBatchOrder } from '../../src/modules/settlement/chain-batch.entity';
import { bearerOf } from '../support/auth.factories';
import { approverToken, requestedAndApproved } from '../support/approval.factories';
import { aDealingDateNav, aHolding, anInvestor } from '../support/factories';
import { aOneStepOrder } from '../support/one-step.factories';
import { randomWallet } from '../support/chain';
import { aChainMarket, aWhitelistedWallet, onTheWorkerChain, opsCall } from '../support/chain.factories';
import { alias } from '../support/ids';

/*
 * Who may hold a share class (issue 46): the class's rule set (named by its `eligibleInvestors`
 * code, `PROF` in the factories) and the investor's category and KYC, refused where an order is
 * asked, and at the dealing date's batch for what changed since acceptance.
 */
jest.setTimeout(300_000);

const REQUEST_RULES = `mutation($input: EligibilityRulesInput!) { requestEligibilityRules(input: $input) { id status
  effect { eligibilityRules { code blockedCountries ineligibleHolders } } } }`;
const SETTLE = `mutation($sc: ID!, $d: String!) { settleDealingDate(shareClassId: $sc, dealingDate: $d) {
  failed { orderId reason } transactions { id purpose } } }`;

describe('Eligibility of investors for a share class', () => {
  const world = onTheWorkerChain();

  /** The share class's rule set `PROF`, requested by test-ops and approved by test-approver. */
  async function rules(input: Record<string, unknown>) {
    const { requested, approved } = await requestedAndApproved(world.gw, REQUEST_RULES, 'requestEligibilityRules', {
      input: { code: 'PROF', reason: 'offering memorandum', ...input },
    });
    expect(requested.body.errors).toBeUndefined();
    expect(approved!.body.errors).toBeUndefined();
    expect(approved!.body.data.approveRequest.status).toBe('executed');
    return { requested: requested.body.data.requestEligibilityRules, result: approved!.body.data.approveRequest.result };
  }

  it('a subscription from a blocked country is refused at placement on surface R and surface O with the rule, and nothing is written', async () => {
    const { gw } = world;
    const m = await aChainMarket(gw);
    await gw.em().nativeUpdate(Investor, { id: m.investor.id }, { countryCode: 'US' });
    await rules({ blockedCountries: ['us', 'IR'] });
    const refusal = (id: string) => `investor ${id} is not eligible for ${m.shareClass.id}: country US is blocked by rule set PROF`;

    const body = { distributorId: m.distributor.id, investorId: m.investor.id, shareClassId: m.shareClass.id, amount: 100 };
    const onR = await gw.api('POST', '/orders/subscribe', { host: 'dist-a.test', body });
    expect(onR.status).toBe(409);
    expect(onR.body).toEqual({ isError: true, errorMsg: refusal(m.investor.id), data: {} });

    const headers = await bearerOf(gw, m.distributor);
    const us = alias(m.investor.id, 'US');
    const onO = await gw.api('POST', '/orders/subscribe', {
      headers,
      body: { distributorId: alias(m.distributor.id, 'PT'), userId: us, shareClassId: m.shareClass.id, amount: 100 },
    });
    expect(onO.status).toBe(409);
    expect(onO.body).toEqual({ isError: true, errorMsg: refusal(us), data: {} });

    const onGraphql = await opsCall(gw, `mutation($input: OneStepSubscriptionInput!) { placeOneStepSubscription(input: $input) { id } }`, {
      input: { distributorId: m.distributor.id, investorId: m.investor.id, shareClassId: m.shareClass.id, amount: '100' },
    });
    expect(onGraphql.errors?.[0]).toMatchObject({ message: refusal(m.investor.id), extensions: { code: 'CONFLICT' } });
    expect(await gw.em().count(Order, {})).toBe(0);

    // The same investor from an allowed country places as before; a redemption is never asked.
    await gw.em().nativeUpdate(Investor, { id: m.investor.id }, { countryCode: 'LU' });
    expect((await gw.api('POST', '/orders/subscribe', { host: 'dist-a.test', body })).status).toBe(200);
  });

  it('a category the rule set does not admit is refused; an upgrade is four-eyes and then admitted', async () => {
    const { gw } = world;
    const m = await aChainMarket(gw);
    await rules({ allowedCategories: ['professional', 'eligible_counterparty'] });
    const body = { distributorId: m.distributor.id, investorId: m.investor.id, shareClassId: m.shareClass.id, amount: 100 };

    const none = await gw.api('POST', '/orders/subscribe', { host: 'dist-a.test', body });
    expect(none.body.errorMsg).toBe(`investor ${m.investor.id} is not eligible for ${m.shareClass.id}: investor category none is not allowed by rule set PROF`);

    const SET = `mutation($i: String!, $c: InvestorCategory!) { setInvestorCategory(investorId: $i, category: $c) { id category } }`;
    expect((await opsCall(gw, SET, { i: m.investor.id, c: 'retail' })).data.setInvestorCategory.category).toBe('retail');
    const retail = await gw.api('POST', '/orders/subscribe', { host: 'dist-a.test', body });
    expect(retail.status).toBe(409);
    expect(retail.body.errorMsg).toMatch(/investor category retail is not allowed by rule set PROF$/);

    // One operator may not upgrade: it is a request another principal approves.
    const alone = await opsCall(gw, SET, { i: m.investor.id, c: 'professional' });
    expect(alone.errors?.[0]).toMatchObject({ extensions: { code: 'FORBIDDEN' } });
    const { approved } = await requestedAndApproved(
      gw,
      `mutation($i: String!, $c: InvestorCategory!) { requestInvestorCategory(investorId: $i, category: $c, reason: "MiFID opt-up assessed") { id } }`,
      'requestInvestorCategory',
      { i: m.investor.id, c: 'professional' },
    );
    expect(approved!.body.data.approveRequest).toMatchObject({
      status: 'executed',
      result: { investorId: m.investor.id, from: 'retail', category: 'professional' },
    });
    expect((await gw.api('POST', '/orders/subscribe', { host: 'dist-a.test', body })).status).toBe(200);
  });

  it('a maximum holding and a supply cap are refused at placement, counting holdings and accepted orders', async () => {
    const { gw } = world;
    const m = await aChainMarket(gw);
    // NAV 1.25: 100 buys 80 tokens.
    await rules({ maxHoldingPerInvestor: '100', supplyCap: '150' });
    const body = (investorId: string, amount: number) => ({ distributorId: m.distributor.id, investorId, shareClassId: m.shareClass.id, amount });

    const tooMuch = await gw.api('POST', '/orders/subscribe', { host: 'dist-a.test', body: body(m.investor.id, 200) });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.errorMsg).toBe(
      `investor ${m.investor.id} is not eligible for ${m.shareClass.id}: a holding of 160 tokens would exceed the maximum of 100 per investor (rule set PROF)`,
    );
    await aHolding(gw.em(), m.investor, m.shareClass, '30');
    const withHolding = await gw.api('POST', '/orders/subscribe', { host: 'dist-a.test', body: body(m.investor.id, 100) });
    expect(withHolding.body.errorMsg).toMatch(/a holding of 110 tokens would exceed the maximum of 100 per investor \(rule set PROF\)$/);

    // Another investor: 30 held + 80 accepted for it + 80 asked = 190 > 150.
    const other = await anInvestor(gw.em(), m.distributor, { grants: [m.shareClass], walletChain: null });
    await aWhitelistedWallet(gw, other.id, randomWallet());
    await aOneStepOrder(gw, { ...m, investor: other }, { amount: '100', stage: 'accepted', chainId: '31337' });
    const third = await anInvestor(gw.em(), m.distributor, { grants: [m.shareClass], walletChain: null });
    const capped = await gw.api('POST', '/orders/subscribe', { host: 'dist-a.test', body: body(third.id, 100) });
    expect(capped.status).toBe(409);
    expect(capped.body.errorMsg).toBe(
      `investor ${third.id} is not eligible for ${m.shareClass.id}: a supply of 190 tokens would exceed the cap of 150 (rule set PROF)`,
    );
    expect((await gw.api('POST', '/orders/subscribe', { host: 'dist-a.test', body: body(third.id, 40) })).status).toBe(200);
  });

  it('an investor whose KYC expired after acceptance is minted nothing: the batch fails that row with the reason and sends the rest', async () => {
    const { gw } = world;
    const m = await aChainMarket(gw);
    const other = await anInvestor(gw.em(), m.distributor, { grants: [m.shareClass], walletChain: null });
    await aWhitelistedWallet(gw, m.investor.id, randomWallet());
    await aWhitelistedWallet(gw, other.id, randomWallet());
    const expiring = await aOneStepOrder(gw, m, { amount: '100', stage: 'accepted', chainId: '31337' });
    const fine = await aOneStepOrder(gw, { ...m, investor: other }, { amount: '100', stage: 'accepted', chainId: '31337' });

    const now = gw.clock.now().getTime();
    const kyc = await opsCall(gw, `mutation($input: InvestorKycInput!) { setInvestorKyc(input: $input) { id kycVerifiedAt kycExpiresAt } }`, {
      input: { investorId: m.investor.id, verifiedAt: now - 400 * 86_400_000, expiresAt: now - 86_400_000 },
    });
    expect(kyc.data.setInvestorKyc).toEqual({ id: m.investor.id, kycVerifiedAt: now - 400 * 86_400_000, kycExpiresAt: now - 86_400_000 });
    const expiredOn = new Date(now - 86_400_000).toISOString().slice(0, 10);

    // No new subscription either.
    const placed = await gw.api('POST', '/orders/subscribe', {
      host: 'dist-a.test',
      body: { distributorId: m.distributor.id, investorId: m.investor.id, shareClassId: m.shareClass.id, amount: 10 },
    });
    expect(placed.body.errorMsg).toBe(`investor ${m.investor.id} is not eligible for ${m.shareClass.id}: KYC expired on ${expiredOn}`);

    await aDealingDateNav(gw.em(), m.shareClass, '1.25', expiring.dealingDate!);
    const run = await opsCall(gw, SETTLE, { sc: m.shareClass.id, d: expiring.dealingDate });
    expect(run.errors).toBeUndefined();
    expect(run.data.settleDealingDate.failed).toEqual([
      { orderId: expiring.id, reason: `investor ${m.investor.id} is not eligible for ${m.shareClass.id}: KYC expired on ${expiredOn}` },
    ]);
    expect(run.data.settleDealingDate.transactions).toHaveLength(1);
    const batched = await gw.em().find(ChainBatchOrder, {});
    expect(batched.map((b) => b.orderId)).toEqual([fine.id]);
    expect((await gw.em().findOneOrFail(Order, { id: expiring.id })).status).toBe('failed');
  });

  it('a rule change lists the holders it makes ineligible; they keep their tokens and may only redeem', async () => {
    const { gw } = world;
    const m = await aChainMarket(gw);
    const american = await anInvestor(gw.em(), m.distributor, { grants: [m.shareClass], walletChain: null, over: { countryCode: 'US' } });
    const big = await anInvestor(gw.em(), m.distributor, { grants: [m.shareClass], walletChain: null });
    await aHolding(gw.em(), american, m.shareClass, '10');
    await aHolding(gw.em(), big, m.shareClass, '500');
    await aHolding(gw.em(), m.investor, m.shareClass, '5');

    // The console asks first who a change would leave ineligible: the list the request then binds.
    const preview = await opsCall(gw, `query($i: EligibilityRulesInput!) { ineligibleHoldersPreview(input: $i) }`, {
      i: { code: 'PROF', reason: '', blockedCountries: ['US'], maxHoldingPerInvestor: '100' },
    });
    const { requested, result } = await rules({ blockedCountries: ['US'], maxHoldingPerInvestor: '100' });
    const listed = [
      `${american.id} (${m.shareClass.id}): country US is blocked by rule set PROF`,
      `${big.id} (${m.shareClass.id}): a holding of 500 tokens would exceed the maximum of 100 per investor (rule set PROF)`,
    ].sort();
    expect(preview.data.ineligibleHoldersPreview).toEqual(listed);
    expect(requested.effect.eligibilityRules).toEqual({ code: 'PROF', blockedCountries: ['US'], ineligibleHolders: listed });
    expect(result).toEqual({ code: 'PROF', ineligibleHolders: listed });
    expect((await opsCall(gw, `query { ineligibleHolders(code: "PROF") }`)).data.ineligibleHolders).toEqual(listed);

    // A request binds the list: a holder who becomes ineligible before approval makes it refuse.
    const second = await gw.graphql(
      REQUEST_RULES,
      { input: { code: 'PROF', blockedCountries: ['US', 'LU'], reason: 'sanctions' } },
      { token: await gw.opsToken() },
    );
    await gw.em().nativeUpdate(Investor, { id: big.id }, { countryCode: 'LU' });
    await aHolding(gw.em(), await anInvestor(gw.em(), m.distributor, { over: { countryCode: 'LU' }, walletChain: null }), m.shareClass, '1');
    const refused = await gw.graphql(
      `mutation($id: ID!) { approveRequest(id: $id, reason: "ok") { id } }`,
      { id: second.body.data.requestEligibilityRules.id },
      { token: await approverToken(gw) },
    );
    expect(refused.body.errors?.[0]).toMatchObject({ extensions: { code: 'CONFLICT' } });
    expect(refused.body.errors?.[0].message).toMatch(/the holders it leaves ineligible changed from/);

    // The blocked holder may still redeem.
    const redeem = await gw.api('POST', '/orders/redeem', {
      host: 'dist-a.test',
      body: { distributorId: m.distributor.id, investorId: american.id, shareClassId: m.shareClass.id, tokenCount: 10 },
    });
    expect(redeem.status).toBe(200);
  });
});
