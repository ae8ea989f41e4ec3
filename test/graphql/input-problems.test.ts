import { startTestGateway, type TestGateway } from '../support/gateway';
import { asOps, shareClassInput } from '../support/ops.factories';

/*
 * An input is answered for every wrong field at once: one GraphQL error whose message is the first
 * problem's and whose `extensions.fields` lists each field's path and what is wrong, in words.
 */
describe('GraphQL: every invalid field of an input in one answer', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());
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
});
