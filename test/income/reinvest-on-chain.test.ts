import Decimal from 'decimal.js';
import { parseUnits, type Hex } from 'viem';
import { DomainEvent } from '../../src/events/event.entity';
import { ChainTransaction } from '../../src/modules/chain/chain-transaction.entity';
import { TOKEN_ABI } from '../../src/modules/chain/contracts';
import { DistributionEntitlement } from '../../src/modules/distribution/distribution.entity';
import { Holding } from '../../src/modules/holding/holding.entity';
import { bookOpening } from '../../src/modules/holding/holding-ledger';
import { aNav, anInvestor } from '../support/factories';
import { eventually, hex, randomWallet } from '../support/chain';
import { aChainMarket, aWhitelistedWallet, behindTheGateway, onTheWorkerChain, opsCall } from '../support/chain.factories';
import { asDeclarer } from '../support/income.factories';

/*
 * October 2026 (dealing zone UTC, the default calendar) on the worker's anvil: a holder all
 * month, one who joins mid-month, one who leaves, one who redeems part, one who joins on the
 * last evening and one the minute after the month closed; paid as reinvestment at the pay date's NAV.
 */
jest.setTimeout(300_000);

const RATE = '0.000123456789';
const NAV = '2';
const DECIMALS = 6;

const POLICY = `mutation($sc: ID!) { setDistributionPolicy(shareClassId: $sc, treatment: distributing, payment: reinvest) { treatment payment } }`;
const PREVIEW = `query($i: DeclareDistributionInput!) { distributionPreview(input: $i) { gross timeZone holders { investorId tokenDays daysHeld gross } } }`;
const DECLARE = `mutation($i: DeclareDistributionInput!) { declareDistribution(input: $i) { id status gross } }`;
const PAY = `mutation($id: ID!) { payDistribution(id: $id) { id status nav tokens paid residue } }`;
const HISTORY = `query($i: ID!) { incomeHistory(investorId: $i) { distributionId payment tokens amount status transferHash } }`;

describe('A month of income reinvested on chain', () => {
  const world = onTheWorkerChain();

  it('each holder is minted their entitlement by the rule, the chain equals the register, the residue is reported, and a second run pays nothing', async () => {
    const { gw, chain, rpcUrl } = world;
    const m = await aChainMarket(gw);
    const em = gw.em();
    const names = ['all', 'joins', 'leaves', 'redeems', 'lastEvening', 'afterClose'] as const;
    const inv: Record<string, { id: string; wallet: Hex }> = {};
    for (const n of names) {
      const investor = n === 'all' ? m.investor : await anInvestor(em, m.distributor, { grants: [m.shareClass], walletChain: null });
      const wallet = randomWallet();
      await aWhitelistedWallet(gw, investor.id, wallet);
      inv[n] = { id: investor.id, wallet: hex(wallet.toLowerCase()) };
    }
    // given the register's month (the journal's instants are what the daily closes read)
    const book = (n: string, quantity: string, at: string) =>
      em
        .fork()
        .transactional((tem) =>
          bookOpening(tem, { investorId: inv[n].id, shareClassId: m.shareClass.id, quantity, settledAt: new Date(at), at: new Date(at) }),
        );
    await book('all', '1000', '2026-09-15T10:00:00Z');
    await book('leaves', '300', '2026-09-20T10:00:00Z');
    await book('redeems', '1000', '2026-09-20T10:00:00Z');
    await book('joins', '500', '2026-10-16T09:00:00Z');
    await book('leaves', '-300', '2026-10-10T12:00:00Z');
    await book('redeems', '-400', '2026-10-21T08:00:00Z');
    await book('lastEvening', '100', '2026-10-31T22:00:00Z');
    await book('afterClose', '100', '2026-11-01T00:00:00Z');
    // …and the same tokens on chain (minted by the issuer's agent behind the gateway: recorded, not followed)
    const held: Record<string, string> = { all: '1000', joins: '500', leaves: '0', redeems: '600', lastEvening: '100', afterClose: '100' };
    for (const n of names)
      if (held[n] !== '0') await behindTheGateway(gw, rpcUrl, m.token.contractAddress, TOKEN_ABI, 'mint', [inv[n].wallet, parseUnits(held[n], DECIMALS)]);
    await aNav(em, m.shareClass, NAV, new Date('2026-11-02T10:00:00Z'));
    expect((await opsCall(gw, POLICY, { sc: m.shareClass.id })).errors).toBeUndefined();

    // when ops preview and declare October at a rate per token per day, paid on 2 November
    const input = { shareClassId: m.shareClass.id, periodFrom: '2026-10-01', periodTo: '2026-10-31', payDate: '2026-11-02', ratePerTokenPerDay: RATE };
    const preview = (await opsCall(gw, PREVIEW, { i: input })).data!.distributionPreview;
    const expectedDays: Record<string, [string, number]> = {
      all: ['31000', 31],
      joins: ['8000', 16],
      leaves: ['2700', 9],
      redeems: ['26600', 31],
      lastEvening: ['100', 1],
    };
    const byInvestor = new Map(preview.holders.map((h: any) => [h.investorId, h]));
    expect(preview.holders).toHaveLength(5);
    for (const [n, [days, held]] of Object.entries(expectedDays))
      expect(byInvestor.get(inv[n].id)).toMatchObject({ tokenDays: days, daysHeld: held, gross: new Decimal(days).mul(RATE).toFixed() });
    // declared by a second operator: test-ops pays it (reinvestment needs two parties, docs/approvals.md)
    const declared = await asDeclarer(gw, DECLARE, { i: input });
    expect(declared.errors).toBeUndefined();
    const id = declared.data!.declareDistribution.id;
    expect(declared.data!.declareDistribution).toMatchObject({ status: 'declared', gross: preview.gross });

    // then paying mints each holder's gross ÷ NAV rounded down to 6 decimals, once
    const paid = await opsCall(gw, PAY, { id });
    expect(paid.errors).toBeUndefined();
    expect(paid.data!.payDistribution).toMatchObject({ status: 'paying', nav: NAV });
    const again = await opsCall(gw, PAY, { id });
    expect(again.data!.payDistribution.status).not.toBe('declared');
    const intents = await em.fork().find(ChainTransaction, { purpose: 'distribution.batchMint' });
    expect(intents).toHaveLength(1);

    const rows = await eventually(
      'every entitlement paid',
      async () => {
        const r = await em.fork().find(DistributionEntitlement, { distributionId: id });
        return r.every((e) => e.status === 'paid') ? r : undefined;
      },
      120_000,
    );
    const expected = (n: string) => new Decimal(expectedDays[n][0]).mul(RATE).div(NAV).toDecimalPlaces(DECIMALS, Decimal.ROUND_DOWN);
    let totalTokens = new Decimal(0);
    for (const n of Object.keys(expectedDays)) {
      const row = rows.find((r) => r.investorId === inv[n].id)!;
      expect(new Decimal(row.tokens!).equals(expected(n))).toBe(true);
      totalTokens = totalTokens.plus(row.tokens!);
      // the chain equals the register, wallet by wallet
      const onChain = await chain.pub.readContract({
        address: m.token.contractAddress as Hex,
        abi: TOKEN_ABI,
        functionName: 'balanceOf',
        args: [inv[n].wallet],
      });
      const register = await em.fork().findOneOrFail(Holding, { investor: inv[n].id, shareClass: m.shareClass.id });
      expect(onChain).toBe(parseUnits(new Decimal(register.balance).toFixed(), DECIMALS));
      expect(new Decimal(register.balance).equals(new Decimal(held[n]).plus(expected(n)))).toBe(true);
      expect(row.transferHash).toBe(intents[0].hash ?? (await em.fork().findOneOrFail(ChainTransaction, { id: intents[0].id })).hash);
    }
    // the residue is what rounding down kept back, reported on the distribution
    const done = (await opsCall(gw, PAY, { id })).data!.payDistribution;
    expect(done.status).toBe('paid');
    expect(new Decimal(done.tokens).equals(totalTokens)).toBe(true);
    expect(new Decimal(done.residue).equals(new Decimal(preview.gross).minus(totalTokens.mul(NAV)))).toBe(true);
    expect(new Decimal(done.residue).greaterThan(0)).toBe(true);
    expect(new Decimal(done.paid).plus(done.residue).equals(preview.gross)).toBe(true);
    // a second run after payment sends nothing more
    expect(await em.fork().count(ChainTransaction, { purpose: 'distribution.batchMint' })).toBe(1);

    // events: one distribution.declared for the distributor, one distribution.paid per holder
    const events = await em.fork().find(DomainEvent, { type: { $in: ['distribution.declared', 'distribution.paid'] } });
    expect(events.filter((e) => e.type === 'distribution.declared').map((e) => e.distributorId)).toEqual([m.distributor.id]);
    expect(
      events
        .filter((e) => e.type === 'distribution.paid')
        .map((e) => (e.payload as any).investorId)
        .sort(),
    ).toEqual(
      Object.keys(expectedDays)
        .map((n) => inv[n].id)
        .sort(),
    );

    // the income history of an investor
    const history = (await opsCall(gw, HISTORY, { i: inv.joins.id })).data!.incomeHistory;
    expect(history).toEqual([expect.objectContaining({ distributionId: id, payment: 'reinvest', status: 'paid', tokens: expected('joins').toFixed() })]);
  });
});
