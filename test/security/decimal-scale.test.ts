import { getNamedType, isInputObjectType, type GraphQLArgument, type GraphQLInputField } from 'graphql';
import { DECIMAL_COLUMN, VOLUME_COLUMN, type DecimalColumn } from '../../src/common/money';
import { gatewaySchema } from '../../src/transports/graphql/schema';
import { Nav } from '../../src/modules/nav/nav.entity';
import { Order } from '../../src/modules/order/order.entity';
import { aHolding, aMarket } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';

/**
 * More decimals than the target column holds are refused with 400 naming the field and the
 * column's scale, on every decimal input: PostgreSQL would round them away silently (`1e-30`
 * tokens were stored as `0`). The table below must name every Decimal input of the schema.
 */
const T0 = new Date(Date.UTC(2031, 2, 3, 10, 0, 0));

type Market = Awaited<ReturnType<typeof aMarket>>;
/** One decimal input: the column it is written to, the field name its message uses, and a call sending `value` in it. */
interface DecimalInput {
  column: DecimalColumn;
  field: string;
  send(gw: TestGateway, m: Market, value: string | number, n: number): Promise<{ errors?: any[] }>;
}

const ops = async (gw: TestGateway, query: string, variables: Record<string, unknown>) =>
  (await gw.graphql(query, variables, { token: await gw.opsToken() })).body;

const publishNav =
  (extra: (v: string | number) => Record<string, unknown>): DecimalInput['send'] =>
  (gw, m, value, n) =>
    ops(gw, 'mutation($input: PublishNavInput!) { publishNav(input: $input) { entryId } }', {
      input: { shareClassId: m.shareClass.id, close: '1.25', publishedAt: T0.getTime() - 3_600_000 - n * 1_000, ...extra(value) },
    });

const metrics =
  (over: (v: string | number) => Record<string, unknown>): DecimalInput['send'] =>
  (gw, m, value) =>
    ops(gw, 'mutation($id: ID!, $input: UpdateShareClassInput!) { updateShareClass(id: $id, input: $input) { id } }', {
      id: m.shareClass.id,
      input: { metrics: { apy_bps: 500, tvl_fiat: '1000', change7D: '0.5', currency: 'USD', maturity_days: -1, ...over(value) } },
    });

/** An order placed by ops for the market's investor, `value` in its quantity field. */
const placement =
  (mutation: string, inputType: string, field: string): DecimalInput['send'] =>
  (gw, m, value) =>
    ops(gw, `mutation($input: ${inputType}!) { ${mutation}(input: $input) { id } }`, {
      input: { distributorId: m.distributor.id, investorId: m.investor.id, shareClassId: m.shareClass.id, [field]: value },
    });

/** A distribution declared for the market's class, `value` as its rate or amount per token. */
const declare =
  (basis: (v: string | number) => Record<string, unknown>): DecimalInput['send'] =>
  (gw, m, value) =>
    ops(gw, 'mutation($input: DeclareDistributionInput!) { declareDistribution(input: $input) { id } }', {
      input: { shareClassId: m.shareClass.id, periodFrom: '2031-02-01', periodTo: '2031-02-28', payDate: '2031-03-02', ...basis(value) },
    });

/** A rule set requested for the market's class, `value` in one of its limits. */
const eligibilityRules =
  (field: string): DecimalInput['send'] =>
  (gw, _m, value) =>
    ops(gw, 'mutation($input: EligibilityRulesInput!) { requestEligibilityRules(input: $input) { id } }', {
      input: { code: 'PROF', reason: 'scale test', [field]: value },
    });

const INPUTS: Record<string, DecimalInput> = {
  'EligibilityRulesInput.maxHoldingPerInvestor': { column: DECIMAL_COLUMN, field: 'maxHoldingPerInvestor', send: eligibilityRules('maxHoldingPerInvestor') },
  'EligibilityRulesInput.supplyCap': { column: DECIMAL_COLUMN, field: 'supplyCap', send: eligibilityRules('supplyCap') },
  'OneStepSubscriptionInput.amount': {
    column: DECIMAL_COLUMN,
    field: 'amount',
    send: placement('placeOneStepSubscription', 'OneStepSubscriptionInput', 'amount'),
  },
  'OneStepRedemptionInput.tokenCount': {
    column: DECIMAL_COLUMN,
    field: 'tokenCount',
    send: placement('placeOneStepRedemption', 'OneStepRedemptionInput', 'tokenCount'),
  },
  'CreateTwoStepSubscriptionInput.amountSubscription': {
    column: DECIMAL_COLUMN,
    field: 'amountSubscription',
    send: placement('createTwoStepSubscription', 'CreateTwoStepSubscriptionInput', 'amountSubscription'),
  },
  'HoldingAdjustmentInput.quantity': {
    column: DECIMAL_COLUMN,
    field: 'quantity',
    send: (gw, m, value) =>
      ops(gw, 'mutation($input: HoldingAdjustmentInput!) { requestHoldingAdjustment(input: $input) { id } }', {
        input: { investorId: m.investor.id, shareClassId: m.shareClass.id, quantity: value, reason: 'scale test' },
      }),
  },
  'ForcedTransferInput.quantity': {
    column: DECIMAL_COLUMN,
    field: 'quantity',
    send: (gw, m, value) =>
      ops(gw, 'mutation($input: ForcedTransferInput!) { requestForcedTransfer(input: $input) { id } }', {
        input: {
          shareClassId: m.shareClass.id,
          chainId: '31337',
          fromInvestorId: m.investor.id,
          toInvestorId: m.investor.id,
          quantity: value,
          reason: 'scale test',
        },
      }),
  },
  'DeclareDistributionInput.ratePerTokenPerDay': {
    column: DECIMAL_COLUMN,
    field: 'ratePerTokenPerDay',
    send: declare((ratePerTokenPerDay) => ({ ratePerTokenPerDay })),
  },
  'DeclareDistributionInput.amountPerToken': { column: DECIMAL_COLUMN, field: 'amountPerToken', send: declare((amountPerToken) => ({ amountPerToken })) },
  'PublishNavInput.close': { column: DECIMAL_COLUMN, field: 'close', send: publishNav((close) => ({ close })) },
  'PublishNavInput.open': { column: DECIMAL_COLUMN, field: 'open', send: publishNav((open) => ({ open })) },
  'PublishNavInput.high': { column: DECIMAL_COLUMN, field: 'high', send: publishNav((high) => ({ high })) },
  'PublishNavInput.low': { column: DECIMAL_COLUMN, field: 'low', send: publishNav((low) => ({ low })) },
  'PublishNavInput.volume': { column: VOLUME_COLUMN, field: 'volume', send: publishNav((volume) => ({ volume })) },
  // A root field's own argument is named with its field.
  'navCorrectionPreview.close': {
    column: DECIMAL_COLUMN,
    field: 'close',
    send: async (gw, m, value) =>
      ops(gw, 'query($nav: ID!, $close: Decimal!) { navCorrectionPreview(navId: $nav, close: $close) { errorBps } }', {
        nav: (await gw.em().findOneOrFail(Nav, { shareClass: m.shareClass.id })).id,
        close: value,
      }),
  },
  'requestNavCorrection.close': {
    column: DECIMAL_COLUMN,
    field: 'close',
    send: async (gw, m, value) =>
      ops(gw, 'mutation($nav: ID!, $close: Decimal!) { requestNavCorrection(navId: $nav, close: $close, reason: "scale test") { id } }', {
        nav: (await gw.em().findOneOrFail(Nav, { shareClass: m.shareClass.id })).id,
        close: value,
      }),
  },
  'ShareClassMetricsInput.tvl_fiat': { column: DECIMAL_COLUMN, field: 'metrics.tvl_fiat', send: metrics((tvl_fiat) => ({ tvl_fiat })) },
  'ShareClassMetricsInput.change7D': { column: DECIMAL_COLUMN, field: 'metrics.change7D', send: metrics((change7D) => ({ change7D })) },
};

/** Every `Decimal` argument and input field reachable from the schema's root fields, as `Type.field`. */
function decimalInputsOfSchema(): string[] {
  const schema = gatewaySchema();
  const found = new Set<string>();
  const seen = new Set<string>();
  const visit = (owner: string, inputs: readonly (GraphQLArgument | GraphQLInputField)[]) => {
    for (const input of inputs) {
      const type = getNamedType(input.type);
      if (type.name === 'Decimal') found.add(`${owner}.${input.name}`);
      if (isInputObjectType(type) && !seen.has(type.name)) {
        seen.add(type.name);
        visit(type.name, Object.values(type.getFields()));
      }
    }
  };
  for (const root of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) {
    for (const field of Object.values(root?.getFields() ?? {})) visit(`${root!.name}.${field.name}`, field.args);
  }
  return [...found].sort();
}

/** `0.000…01` with one decimal place more than `scale`. */
const oneDigitTooMany = (scale: number) => `0.${'0'.repeat(scale)}1`;
/** `0.000…01` with exactly `scale` decimal places. */
const justFits = (scale: number) => `0.${'0'.repeat(scale - 1)}1`;

describe('decimal inputs: more decimals than the column holds answer 400, never a silent rounding', () => {
  let gw: TestGateway;
  let m: Market;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());
  beforeEach(async () => {
    await gw.reset();
    gw.clock.set(T0);
    m = await aMarket(gw.em(), gw.clock.now());
    await aHolding(gw.em(), m.investor, m.shareClass, '100');
  });

  it('the table names every Decimal input of the schema (a new one must be added here)', () => {
    expect(
      decimalInputsOfSchema()
        .map((k) => k.replace(/^(Query|Mutation|Subscription)\./, ''))
        .sort(),
    ).toEqual(Object.keys(INPUTS).sort());
  });

  it.each(Object.entries(INPUTS))('%s: one decimal place past the column is 400 naming the field; nothing is written', async (_name, input) => {
    const [orders, navs] = [await gw.em().count(Order, {}), await gw.em().count(Nav, {})];
    let n = 0;
    for (const value of [oneDigitTooMany(input.column.scale), `-${oneDigitTooMany(input.column.scale)}`, ...(input.column.scale === 18 ? [1e-30] : [])]) {
      const res = await input.send(gw, m, value, n++);
      expect(res.errors?.[0]).toMatchObject({
        message: `${input.field} must have at most ${input.column.scale} decimal places`,
        extensions: { code: 'BAD_USER_INPUT' },
      });
    }
    expect([await gw.em().count(Order, {}), await gw.em().count(Nav, {})]).toEqual([orders, navs]);
  });

  it.each(Object.entries(INPUTS))("%s: exactly the column's scale is not refused for it", async (_name, input) => {
    const res = await input.send(gw, m, justFits(input.column.scale), 0);
    for (const e of res.errors ?? []) expect(e.message).not.toMatch(/decimal places|out of range/);
  });

  describe('over REST, as the finding was reproduced', () => {
    it('`1e-30` tokens on POST /orders/redeem (surface R): 400 `tokenCount must have at most 18 decimal places`, no order', async () => {
      const res = await gw.api('POST', '/orders/redeem', {
        host: m.hostA,
        raw: `{"distributorId":"${m.distributor.id}","investorId":"${m.investor.id}","shareClassId":"${m.shareClass.id}","tokenCount":1e-30}`,
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ isError: true, errorMsg: 'tokenCount must have at most 18 decimal places', data: {} });
      expect(await gw.em().count(Order, {})).toBe(0);
    });

    it('19 decimal places in the amount of POST /orders/subscribe, both flows: 400 naming the field', async () => {
      const one = await gw.api('POST', '/orders/subscribe', {
        host: m.hostA,
        raw: `{"distributorId":"${m.distributor.id}","investorId":"${m.investor.id}","shareClassId":"${m.shareClass.id}","amount":"${oneDigitTooMany(18)}"}`,
      });
      expect([one.status, one.body.errorMsg]).toEqual([400, 'amount must have at most 18 decimal places']);
      const twoString = await gw.api('POST', '/orders/subscribe', {
        host: m.hostA,
        raw: `{"distributorId":"${m.distributor.id}","investorId":"${m.investor.id}","shareClassId":"${m.shareClass.id}","amountSubscription":1e-19}`,
      });
      expect([twoString.status, twoString.body.errorMsg]).toEqual([400, 'amountSubscription must have at most 18 decimal places']);
    });
  });
});
