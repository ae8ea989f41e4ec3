import Decimal from 'decimal.js';
import { DomainEvent } from '../../src/events/event.entity';
import { bookOpening } from '../../src/modules/holding/holding-ledger';
import { Holding } from '../../src/modules/holding/holding.entity';
import { bearerOf } from '../support/auth.factories';
import { Token } from '../../src/modules/token/token.entity';
import { aDistributor, aGrant, aMarket, anInvestor, aNav, CHAIN } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { httpRequest } from '../support/http';
import { asDeclarer } from '../support/income.factories';

const POLICY = `mutation($sc: ID!, $t: IncomeTreatment!, $p: IncomePayment) { setDistributionPolicy(shareClassId: $sc, treatment: $t, payment: $p) { treatment payment } }`;
const DECLARE = `mutation($i: DeclareDistributionInput!) { declareDistribution(input: $i) { id status gross amountPerToken periodFrom periodTo } }`;
const PAY = `mutation($id: ID!) { payDistribution(id: $id) { status paid residue tokens } }`;
const ENTITLEMENTS = `query($id: ID!) { distributionEntitlements(id: $id) { investorId tokenDays gross amount tokens status } }`;
const HISTORY = `query($i: ID!) { incomeHistory(investorId: $i) { distributionId payment amount status } }`;

describe('Income paid in cash, and the rules of a declaration', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  const ops = async (query: string, variables: Record<string, unknown>) => (await gw.graphql(query, variables, { token: await gw.opsToken() })).body;

  it('pays each holder of the record date its amount per token rounded down to cents, once, and tells only its distributor', async () => {
    const m = await aMarket(gw.em(), new Date());
    const other = await aDistributor(gw.em(), ['dist-c.test'], { name: 'Third' });
    await aGrant(gw.em(), other, m.shareClass);
    const a = await anInvestor(gw.em(), m.distributor, { grants: [m.shareClass] });
    const b = await anInvestor(gw.em(), other, { grants: [m.shareClass] });
    const book = (investorId: string, quantity: string, at: string) =>
      gw
        .em()
        .fork()
        .transactional((em) => bookOpening(em, { investorId, shareClassId: m.shareClass.id, quantity, settledAt: new Date(at), at: new Date(at) }));
    await book(a.id, '333.333333', '2026-10-01T10:00:00Z');
    await book(b.id, '10', '2026-10-01T10:00:00Z');
    await book(b.id, '-10', '2026-10-31T12:00:00Z'); // left before the record date closed
    const input = { shareClassId: m.shareClass.id, recordDate: '2026-10-31', payDate: '2026-11-05', amountPerToken: '0.0123' };

    // given an accumulating class (the default): nothing to distribute
    expect((await ops(DECLARE, { i: input })).errors?.[0]).toMatchObject({ extensions: { code: 'CONFLICT' } });
    expect((await ops(POLICY, { sc: m.shareClass.id, t: 'distributing', p: null })).errors?.[0]?.message).toBe(
      'a distributing share class pays by reinvest or cash: payment is required',
    );
    expect((await ops(POLICY, { sc: m.shareClass.id, t: 'distributing', p: 'cash' })).data.setDistributionPolicy).toEqual({
      treatment: 'distributing',
      payment: 'cash',
    });
    // a period that has not closed yet, and an amount per token over a period, are refused
    gw.clock.set(new Date('2026-10-31T20:00:00Z'));
    expect((await ops(DECLARE, { i: input })).errors?.[0]?.message).toBe(
      'the period ends 2026-10-31: its closing balances are known once that day has closed in the dealing zone',
    );
    gw.clock.set(new Date('2026-11-03T09:00:00Z'));
    expect((await ops(DECLARE, { i: { ...input, recordDate: undefined, periodFrom: '2026-10-01', periodTo: '2026-10-31' } })).errors?.[0]?.message).toBe(
      'an amountPerToken is paid on the balances of a recordDate',
    );
    expect((await ops(DECLARE, { i: { ...input, ratePerTokenPerDay: '0.1' } })).errors?.[0]?.message).toBe(
      'give exactly one of ratePerTokenPerDay and amountPerToken',
    );

    // when declared and paid
    const declared = (await ops(DECLARE, { i: input })).data.declareDistribution;
    expect(declared).toMatchObject({ status: 'declared', periodFrom: '2026-10-31', periodTo: '2026-10-31', amountPerToken: '0.0123' });
    const gross = new Decimal('333.333333').mul('0.0123');
    expect(declared.gross).toBe(gross.toFixed());
    const paid = (await ops(PAY, { id: declared.id })).data.payDistribution;
    // then A is paid 4.09 (4.0999999959 rounded down), the residue is what was kept back, and nothing is minted
    expect(paid).toEqual({ status: 'paid', paid: '4.09', residue: gross.minus('4.09').toFixed(), tokens: null });
    expect((await ops(ENTITLEMENTS, { id: declared.id })).data.distributionEntitlements).toEqual([
      { investorId: a.id, tokenDays: '333.333333', gross: gross.toFixed(), amount: '4.09', tokens: null, status: 'paid' },
    ]);
    expect((await gw.em().findOneOrFail(Holding, { investor: a.id })).balance).toMatch(/^333\.3333330*$/);
    // a second run pays nothing twice
    expect((await ops(PAY, { id: declared.id })).data.payDistribution.paid).toBe('4.09');
    const events = await gw.em().find(DomainEvent, { type: { $in: ['distribution.declared', 'distribution.paid'] } }, { orderBy: { occurredAt: 'asc' } });
    expect(events.map((e) => [e.type, e.distributorId])).toEqual([
      ['distribution.declared', m.distributor.id],
      ['distribution.paid', m.distributor.id],
    ]);

    // the income history: ops and the investor's distributor see it; another distributor finds no such investor
    expect((await ops(HISTORY, { i: a.id })).data.incomeHistory).toEqual([{ distributionId: declared.id, payment: 'cash', amount: '4.09', status: 'paid' }]);
    const own = await gw.graphql(HISTORY, { i: a.id }, { headers: await bearerOf(gw, m.distributor) });
    expect(own.body.data.incomeHistory).toHaveLength(1);
    const foreign = await gw.graphql(HISTORY, { i: a.id }, { headers: await bearerOf(gw, other) });
    expect(foreign.body.errors?.[0]).toMatchObject({ message: 'Investor not found', extensions: { code: 'NOT_FOUND' } });
    // the investor's statement lists the income in the period of its pay date, not outside it
    const statement = (from: string, to: string) =>
      httpRequest(gw.port, 'GET', `/ops/statement.csv?investorId=${a.id}&from=${from}&to=${to}`, { headers: { authorization: `Bearer ${opsToken}` } });
    const opsToken = await gw.opsToken();
    expect((await statement('2026-11-01', '2026-11-30')).text).toContain(`\r\nincome,2026-11-05,${m.shareClass.id},${declared.id},cash,paid,,,4.09,`);
    expect((await statement('2026-11-06', '2026-11-30')).text).not.toContain('income,');
    // and a distributor may not declare
    const refused = await gw.graphql(DECLARE, { i: input }, { headers: await bearerOf(gw, m.distributor) });
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('refuses to reinvest for a token on a chain the gateway does not write to, and reinvests on the register only when the class has no token', async () => {
    const m = await aMarket(gw.em(), new Date());
    const a = await anInvestor(gw.em(), m.distributor, { grants: [m.shareClass] });
    await gw
      .em()
      .fork()
      .transactional((em) =>
        bookOpening(em, {
          investorId: a.id,
          shareClassId: m.shareClass.id,
          quantity: '1000',
          settledAt: new Date('2026-09-01T00:00:00Z'),
          at: new Date('2026-09-01T00:00:00Z'),
        }),
      );
    await aNav(gw.em(), m.shareClass, '3', new Date('2026-10-02T12:00:00Z'));
    gw.clock.set(new Date('2026-10-03T09:00:00Z'));
    await ops(POLICY, { sc: m.shareClass.id, t: 'distributing', p: 'reinvest' });
    // declared by a second operator: test-ops pays it (reinvestment needs two parties, docs/approvals.md)
    const declared = (
      await asDeclarer(gw, DECLARE, {
        i: { shareClassId: m.shareClass.id, periodFrom: '2026-09-01', periodTo: '2026-09-30', payDate: '2026-10-02', ratePerTokenPerDay: '0.0001' },
      })
    ).data.declareDistribution;
    expect(declared.gross).toBe('3');
    const offChain = await ops(PAY, { id: declared.id });
    expect(offChain.errors?.[0]).toMatchObject({
      message: `share class ${m.shareClass.id} has a token on chain ${CHAIN}, which the gateway does not write to: its reinvestment cannot be minted`,
      extensions: { code: 'CONFLICT' },
    });
    await gw.em().nativeDelete(Token, { shareClass: m.shareClass.id });
    const paid = (await ops(PAY, { id: declared.id })).data.payDistribution;
    expect(paid).toEqual({ status: 'paid', paid: '3', residue: '0', tokens: '1' });
    expect((await gw.em().findOneOrFail(Holding, { investor: a.id })).balance).toMatch(/^1001(\.0+)?$/);
  });
});
