import { Order } from '../../src/modules/order/order.entity';
import type { SupplySimulator } from '../../src/supply/simulator';
import { approverToken } from '../support/approval.factories';
import { aMarket, anInvestor, CHAIN } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aOneStepOrder } from '../support/one-step.factories';
import { asOps, evmAddress, shareClassInput } from '../support/ops.factories';
import { aSimulator, aTwoStepOrder, connectCallbacks, providersFor } from '../support/order.factories';

/*
 * An input is answered for every wrong field at once: one GraphQL error whose message is the first
 * problem's and whose `extensions.fields` lists each field's path and what is wrong, in words.
 */
describe('GraphQL: every invalid field of an input in one answer', () => {
  let gw: TestGateway;
  let sim: SupplySimulator;
  beforeAll(async () => {
    // The simulator takes the pushes of the two-step orders whose refusals ops record (required reasons).
    sim = await aSimulator();
    gw = await startTestGateway({ supply: providersFor(sim) });
    connectCallbacks(sim, gw);
  });
  afterAll(async () => {
    await gw.close();
    await sim.stop();
  });
  beforeEach(() => gw.reset());

  async function refusal(query: string, variables: Record<string, unknown>) {
    const res = await gw.graphql(query, variables, { token: await gw.opsToken() });
    expect(res.body.errors).toHaveLength(1);
    const [error] = res.body.errors!;
    return { message: error.message, code: error.extensions?.code, fields: error.extensions?.fields };
  }

  async function aFund() {
    const { createIssuer } = await asOps(gw, `mutation { createIssuer(input: {name: "Issuer", lei: "5493001KJTIIGC8Y1R12", jurisdiction: "LU"}) { id } }`);
    const { createFund } = await asOps(gw, `mutation($i: ID!) { createFund(input: {issuerId: $i, name: "Fund"}) { id } }`, { i: createIssuer.id });
    return createFund.id as string;
  }

  /** Decimal scalars: GraphQL itself refuses an empty one while reading the variables. */
  const DECIMALS = ['tvl_fiat', 'change7D', 'fundId'];
  const blankable = (k: string, v: unknown) => typeof v === 'string' && !DECIMALS.includes(k);

  /** Every String leaf of a share class input, by path (`details.isin`). */
  function textPaths(input: Record<string, unknown>, prefix = ''): string[] {
    return Object.entries(input).flatMap(([k, v]) =>
      v && typeof v === 'object' ? textPaths(v as Record<string, unknown>, `${prefix}${k}.`) : blankable(k, v) ? [`${prefix}${k}`] : [],
    );
  }

  it('a share class with every text field left empty is refused once, naming each of them', async () => {
    // given a fund and a share class input whose every text is empty
    const fundId = await aFund();
    const full = shareClassInput(fundId);
    const blank = JSON.parse(JSON.stringify(full, (k, v) => (blankable(k, v) ? '' : v)));
    // when it is created
    const error = await refusal(`mutation($in: CreateShareClassInput!) { createShareClass(input: $in) { id } }`, { in: blank });
    // then one error lists every one of them as required, the first one's sentence as its message
    const paths = textPaths(full);
    expect(paths.length).toBeGreaterThan(12);
    expect(error).toEqual({ message: `${paths[0]} is required`, code: 'BAD_USER_INPUT', fields: paths.map((path) => ({ path, message: 'is required' })) });
  });

  it('identifiers with wrong check digits are refused naming the field and the standard', async () => {
    const fundId = await aFund();
    const input = shareClassInput(fundId, {
      details: { isin: 'LU2900000037', jurisdiction: 'Luxembourg', minimumInvestment_fiat: 1 },
      bank: { ...shareClassInput(fundId).bank, accountNumber: 'LU280019400000001234', swiftCode: 'BLUXZZLL', currency: 'EUX' },
    });
    const error = await refusal(`mutation($in: CreateShareClassInput!) { createShareClass(input: $in) { id } }`, { in: input });
    expect(error).toEqual({
      message: 'details.isin: check digit does not match (ISO 6166)',
      code: 'BAD_USER_INPUT',
      fields: [
        { path: 'details.isin', message: 'check digit does not match (ISO 6166)' },
        { path: 'details.jurisdiction', message: 'must be a country code of two letters (ISO 3166-1 alpha-2)' },
        { path: 'bank.accountNumber', message: 'check digits do not match (ISO 13616)' },
        { path: 'bank.swiftCode', message: 'must be a BIC: ZZ is not a country code (ISO 9362)' },
        { path: 'bank.currency', message: 'must be a currency code (ISO 4217)' },
      ],
    });
  });

  it("an issuer's LEI is checked (ISO 17442) and its jurisdiction is a country", async () => {
    const error = await refusal(`mutation($in: CreateIssuerInput!) { createIssuer(input: $in) { id } }`, {
      in: { name: '', lei: 'ABCDEFGHIJKLMNOPQR12', jurisdiction: 'Luxembourg' },
    });
    expect(error).toEqual({
      message: 'name is required',
      code: 'BAD_USER_INPUT',
      fields: [
        { path: 'name', message: 'is required' },
        { path: 'lei', message: 'check digits do not match (ISO 17442)' },
        { path: 'jurisdiction', message: 'must be a country code of two letters (ISO 3166-1 alpha-2)' },
      ],
    });
    // and lower case and spaces are read as the standard writes them
    const { createIssuer } = await asOps(
      gw,
      `mutation { createIssuer(input: {name: "I", lei: "5493 001k jtii gc8y 1r12", jurisdiction: "lu"}) { lei jurisdiction } }`,
    );
    expect(createIssuer).toEqual({ lei: '5493001KJTIIGC8Y1R12', jurisdiction: 'LU' });
  });

  it('a single refusal names its field too', async () => {
    const error = await refusal(`mutation($in: CreateTokenInput!) { createToken(input: $in) { id } }`, {
      in: { shareClassId: 'SC000001', chainId: 'x', contractAddress: '0x1', name: 'T', symbol: 'T', decimals: 6 },
    });
    expect(error).toEqual({
      message: 'chainId must be a numeric EVM chain id',
      code: 'BAD_USER_INPUT',
      fields: [
        { path: 'chainId', message: 'must be a numeric EVM chain id' },
        { path: 'contractAddress', message: 'must be an EVM address (0x and 40 hex digits)' },
      ],
    });
  });

  describe('required reasons: blank is refused on the server, before anything moves', () => {
    const BLANK = '   ';
    const REFUSED = { message: 'reason is required', code: 'BAD_USER_INPUT', fields: [{ path: 'reason', message: 'is required' }] };

    /** Every mutation taking a reason, as an argument or as a field of its input, read from the schema. */
    async function mutationsTakingAReason(): Promise<string[]> {
      const { __schema } = await asOps(
        gw,
        `{ __schema { mutationType { fields { name args { name type { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } }
             types { name kind inputFields { name } } } }`,
      );
      const inputsWithReason = new Set<string>(
        __schema.types.filter((t: any) => t.kind === 'INPUT_OBJECT' && t.inputFields.some((f: any) => f.name === 'reason')).map((t: any) => t.name),
      );
      const typeName = (t: any): string => t?.name ?? (t ? typeName(t.ofType) : '');
      return __schema.mutationType.fields
        .filter((f: any) => f.args.some((a: any) => a.name === 'reason' || inputsWithReason.has(typeName(a.type))))
        .map((f: any) => f.name)
        .sort();
    }

    /** Where approving needs no reason (the request carries the maker's): its reason stays optional. */
    const OPTIONAL = ['approveRequest'];

    /**
     * Each mutation sent with a blank reason by a principal allowed to run it, on a record it could
     * move; `unchanged` reads back what must not have moved.
     */
    type World = Awaited<ReturnType<typeof world>>;
    const CASES: Record<string, (w: World) => Promise<{ query: string; variables: Record<string, unknown>; token?: string }>> = {
      rejectOneStepOrder: async (w) => ({
        query: `mutation($id: ID!, $r: String!) { rejectOneStepOrder(orderId: $id, reason: $r) { status } }`,
        variables: { id: w.pending.id, r: BLANK },
      }),
      failOneStepOrder: async (w) => ({
        query: `mutation($id: ID!, $r: String!) { failOneStepOrder(orderId: $id, reason: $r) { status } }`,
        variables: { id: w.pending.id, r: BLANK },
      }),
      cancelOneStepOrder: async (w) => ({
        query: `mutation($id: ID!, $r: String) { cancelOneStepOrder(orderId: $id, reason: $r) { success } }`,
        variables: { id: w.pending.id, r: BLANK },
      }),
      recordSupplyOutcome: async (w) => ({
        query: `mutation($i: SupplyOutcomeInput!) { recordSupplyOutcome(input: $i) { status } }`,
        variables: { i: { orderId: w.submitted, outcome: 'rejected', reason: BLANK } },
      }),
      removeInvestorWallet: async (w) => ({
        query: `mutation($i: RemoveInvestorWalletInput!) { removeInvestorWallet(input: $i) { status } }`,
        variables: { i: { investorId: w.m.investor.id, chainId: CHAIN, reason: BLANK } },
      }),
      requestWalletRecovery: async (w) => ({
        query: `mutation($i: RecoverInvestorWalletInput!) { requestWalletRecovery(input: $i) { id } }`,
        variables: { i: { investorId: w.m.investor.id, chainId: CHAIN, newAddress: evmAddress(77), reason: BLANK } },
      }),
      freezeInvestorWallet: async (w) => ({
        query: `mutation($inv: ID!, $c: String!, $sc: String!, $r: String!) { freezeInvestorWallet(investorId: $inv, chainId: $c, shareClassId: $sc, reason: $r) { id } }`,
        variables: { inv: w.m.investor.id, c: CHAIN, sc: w.m.shareClass.id, r: BLANK },
      }),
      requestWalletUnfreeze: async () => ({
        query: `mutation($r: String!) { requestWalletUnfreeze(freezeId: "1", reason: $r) { id } }`,
        variables: { r: BLANK },
      }),
      requestHoldingAdjustment: async (w) => ({
        query: `mutation($i: HoldingAdjustmentInput!) { requestHoldingAdjustment(input: $i) { id } }`,
        variables: { i: { investorId: w.m.investor.id, shareClassId: w.m.shareClass.id, quantity: '5', reason: BLANK } },
      }),
      requestForcedTransfer: async (w) => ({
        query: `mutation($i: ForcedTransferInput!) { requestForcedTransfer(input: $i) { id } }`,
        variables: {
          i: { shareClassId: w.m.shareClass.id, chainId: CHAIN, fromInvestorId: w.m.investor.id, toInvestorId: w.other, quantity: '1', reason: BLANK },
        },
      }),
      rejectRequest: async (w) => ({
        query: `mutation($id: ID!, $r: String!) { rejectRequest(id: $id, reason: $r) { status } }`,
        variables: { id: w.request, r: BLANK },
        token: await approverToken(gw),
      }),
      requestNavCorrection: async () => ({
        query: `mutation($r: String!) { requestNavCorrection(navId: "1", close: "1.3", reason: $r) { id } }`,
        variables: { r: BLANK },
      }),
      requestEligibilityRules: async () => ({
        query: `mutation($i: EligibilityRulesInput!) { requestEligibilityRules(input: $i) { id } }`,
        variables: { i: { code: 'PROF', blockedCountries: ['US'], reason: BLANK } },
      }),
      requestInvestorCategory: async (w) => ({
        query: `mutation($id: String!, $r: String!) { requestInvestorCategory(investorId: $id, category: professional, reason: $r) { id } }`,
        variables: { id: w.m.investor.id, r: BLANK },
      }),
      requestOpsPrincipal: async () => ({
        query: `mutation($r: String!) { requestOpsPrincipal(name: "desk-newcomer", roles: ["operator"], reason: $r) { id } }`,
        variables: { r: BLANK },
      }),
      requestOpsRoles: async () => ({
        query: `mutation($r: String!) { requestOpsRoles(name: "test-ops", roles: ["operator"], reason: $r) { id } }`,
        variables: { r: BLANK },
      }),
      requestOpsTokenReset: async () => ({
        query: `mutation($r: String!) { requestOpsTokenReset(name: "test-ops", reason: $r) { id } }`,
        variables: { r: BLANK },
      }),
    };

    async function world() {
      const m = await aMarket(gw.em(), gw.clock.now());
      sim.addFund(m.shareClass.fund.id);
      const pending = await aOneStepOrder(gw, m);
      const twoStep = await aTwoStepOrder(gw, m);
      expect((await gw.api('POST', `/orders/subscriptions/push/${twoStep.orderId}`, { host: m.hostA })).status).toBe(200);
      const other = await anInvestor(gw.em(), m.distributor, { grants: [m.shareClass], over: { externalInvestorId: 'ext-2', email: 'second@example.com' } });
      const { requestHoldingAdjustment } = await asOps(gw, `mutation($i: HoldingAdjustmentInput!) { requestHoldingAdjustment(input: $i) { id } }`, {
        i: { investorId: m.investor.id, shareClassId: m.shareClass.id, quantity: '5', reason: 'opening balance' },
      });
      return { m, pending, submitted: twoStep.orderId as string, other: other.id, request: requestHoldingAdjustment.id as string };
    }

    it('every mutation taking a reason is listed here, and each refuses a blank one with BAD_USER_INPUT', async () => {
      expect(await mutationsTakingAReason()).toEqual([...Object.keys(CASES), ...OPTIONAL].sort());
      const w = await world();
      for (const [name, send] of Object.entries(CASES)) {
        const { query, variables, token } = await send(w);
        const res = await gw.graphql(query, variables, { token: token ?? (await gw.opsToken()) });
        const error = res.body.errors?.[0];
        expect([name, res.body.errors?.length, { message: error?.message, code: error?.extensions?.code, fields: error?.extensions?.fields }]).toEqual([
          name,
          1,
          REFUSED,
        ]);
      }
      // Nothing moved: the orders are where they were, the request still waits, no other request was made.
      expect((await gw.em().findOneOrFail(Order, w.pending.id)).status).toBe('pending');
      expect((await gw.em().findOneOrFail(Order, w.submitted)).status).toBe('submitted');
      const { approvalRequests } = await asOps(gw, `{ approvalRequests { id status } }`);
      expect(approvalRequests).toEqual([{ id: w.request, status: 'requested' }]);
    });

    it('a cancellation by ops says why (a missing reason too); the distributor cancelling its own order need not', async () => {
      const w = await world();
      const cancel = `mutation($id: ID!, $r: String) { cancelOneStepOrder(orderId: $id, reason: $r) { success } }`;
      const missing = await gw.graphql(cancel, { id: w.pending.id }, { token: await gw.opsToken() });
      expect(missing.body.errors?.[0]).toMatchObject({ message: 'reason is required', extensions: { code: 'BAD_USER_INPUT' } });
      const twoStep = await aTwoStepOrder(gw, w.m);
      const cancelTwoStep = `mutation($id: String!, $n: String) { cancelTwoStepSubscription(orderId: $id, note: $n) { status } }`;
      const blankNote = await gw.graphql(cancelTwoStep, { id: twoStep.orderId, n: BLANK }, { token: await gw.opsToken() });
      expect(blankNote.body.errors?.[0]).toMatchObject({ message: 'note is required', extensions: { code: 'BAD_USER_INPUT' } });
      const byOps = await asOps(gw, cancel, { id: w.pending.id, r: 'duplicate of a phoned order' });
      expect(byOps.cancelOneStepOrder.success).toBe(true);
      const history = await gw.em().findOneOrFail(Order, w.pending.id, { populate: ['history'] });
      expect(history.history.getItems().map((e) => [e.status, e.note ?? null])).toEqual([
        ['pending', null],
        ['cancelled', 'duplicate of a phoned order'],
      ]);
      const own = await aOneStepOrder(gw, w.m);
      const res = await gw.api('POST', `/orders/cancel/${own.id}`, { host: w.m.hostA });
      expect([res.status, res.body.isError]).toEqual([200, false]);
    });
  });
});
