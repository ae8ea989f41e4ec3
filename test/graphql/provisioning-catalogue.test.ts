import { startTestGateway, type TestGateway } from '../support/gateway';
import {
  aFundViaOps,
  aShareClassViaOps,
  asOps,
  aTokenViaOps,
  evmAddress,
  opsError,
  SHARE_CLASS_FIELDS,
  shareClassInput,
  TOKEN_FIELDS,
} from '../support/ops.factories';

describe('GraphQL ops provisioning: issuers, funds, share classes and tokens', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  describe('issuers and funds', () => {
    it('creates an issuer (IS######) stamped with the ops token name, and updates only the given fields', async () => {
      const { issuer } = await aFundViaOps(gw);
      expect(issuer).toMatchObject({ id: expect.stringMatching(/^IS\d{6}$/), name: 'Issuer', lei: '5493001KJTIIGC8Y1R12', createdBy: 'test-ops' });
      const { updateIssuer } = await asOps(
        gw,
        `mutation($id: ID!) { updateIssuer(id: $id, input: {name: "Renamed"}) { name lei jurisdiction updatedBy } }`,
        { id: issuer.id },
        { 'x-actor': 'alice' },
      );
      expect(updateIssuer).toEqual({ name: 'Renamed', lei: '5493001KJTIIGC8Y1R12', jurisdiction: 'LU', updatedBy: 'alice' });
    });

    it('an empty issuer name is refused with `name is required`', async () => {
      expect(await opsError(gw, `mutation { createIssuer(input: {name: "  "}) { id } }`)).toEqual({ message: 'name is required', code: 'BAD_USER_INPUT' });
    });

    it('a fund of an unknown issuer is NOT_FOUND; funds filter by issuer and resolve their issuer and share classes', async () => {
      expect(await opsError(gw, `mutation { createFund(input: {issuerId: "IS999999", name: "F"}) { id } }`)).toEqual({
        message: 'issuer not found: IS999999',
        code: 'NOT_FOUND',
      });
      const a = await aFundViaOps(gw);
      await aFundViaOps(gw);
      const sc = await aShareClassViaOps(gw, a.fund.id);
      const { funds } = await asOps(
        gw,
        `query($i: ID) { funds(filter: {issuerId: $i}) { items { id issuer { id name funds { id } } shareClasses { id fund { id } } } nextCursor } }`,
        { i: a.issuer.id },
      );
      expect(funds).toEqual({
        items: [
          { id: a.fund.id, issuer: { id: a.issuer.id, name: 'Issuer', funds: [{ id: a.fund.id }] }, shareClasses: [{ id: sc.id, fund: { id: a.fund.id } }] },
        ],
        nextCursor: null,
      });
    });
  });

  describe('share classes', () => {
    it('creates a share class with every documented field, and it reads back through surface R once granted', async () => {
      const { fund } = await aFundViaOps(gw);
      const sc = await aShareClassViaOps(gw, fund.id);
      const expected = shareClassInput(fund.id);
      const { metrics, ...rest } = expected;
      expect(sc).toMatchObject({ ...rest, id: expect.stringMatching(/^SC\d{6}$/), status: 'active', defaultChainId: null, createdBy: 'test-ops' });
      expect(sc.metrics).toEqual({ ...metrics, tvl_fiat: '1000.1', change7D: '-0.5' }); // canonical decimal strings
      await aTokenViaOps(gw, sc.id, '137', 1);
      const { createDistributor } = await asOps(gw, `mutation { createDistributor(input: {name: "D"}) { id } }`);
      await asOps(gw, `mutation($d: ID!) { addDistributorHost(input: {distributorId: $d, hostname: "ops-made.test"}) { hostname } }`, {
        d: createDistributor.id,
      });
      await asOps(gw, `mutation($d: ID!, $s: ID!) { grantShareClass(input: {distributorId: $d, shareClassId: $s, deliveryMode: hold}) { deliveryMode } }`, {
        d: createDistributor.id,
        s: sc.id,
      });
      const res = await gw.api('GET', `/funds/shareclass/${sc.id}`, { host: 'ops-made.test' });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ shareClassId: sc.id, fundId: fund.id, currency: 'EUR', defaultChainId: '137', bank: expected.bank });
    });

    it('validates currency, provider, fees and the sub-objects with messages naming the field', async () => {
      const { fund } = await aFundViaOps(gw);
      const cases: [Record<string, unknown>, string][] = [
        [{ currency: 'usd' }, 'currency must be an ISO 4217 code of three upper-case letters'],
        [{ provider: 'Supply Sim!' }, 'provider must be a lower-case identifier such as supply-sim'],
        [{ provider: '' }, 'provider is required'],
        [{ feesSubBps: -1 }, 'feesSubBps must be an integer from 0 to 10000'],
        [{ feesWatermarkBps: 10001 }, 'feesWatermarkBps must be an integer from 0 to 10000'],
        [{ meta: { name: '', manager: 'M' } }, 'meta.name is required'],
        [
          { details: { isin: 'nope', jurisdiction: 'LU', minimumInvestment_fiat: 1 } },
          'details.isin: must be an ISIN of 2 letters, 9 letters or digits and 1 check digit (ISO 6166)',
        ],
        [{ details: { isin: 'LU2900000030', jurisdiction: 'LU', minimumInvestment_fiat: -5 } }, 'details.minimumInvestment_fiat must be >= 0'],
        [{ metrics: { apy_bps: 1, tvl_fiat: '-1', change7D: '0', currency: 'EUR', maturity_days: -1 } }, 'metrics.tvl_fiat must be >= 0'],
        [
          { metrics: { apy_bps: 1, tvl_fiat: '1', change7D: '0', currency: 'EUR', maturity_days: -2 } },
          'metrics.maturity_days must be an integer from -1 to 100000',
        ],
        [{ overview: { assetClass: 'MM', description: 'd', riskLevel: 0 } }, 'overview.riskLevel must be an integer from 1 to 7'],
        [{ bank: { ...shareClassInput('x').bank, currency: 'euro' } }, 'bank.currency must be an ISO 4217 code of three upper-case letters'],
        [{ bank: { ...shareClassInput('x').bank, swiftCode: 'BAD' } }, 'bank.swiftCode: must be a BIC of 8 or 11 letters or digits (ISO 9362)'],
        [{ fundId: 'FN999999' }, 'fund not found: FN999999'],
      ];
      for (const [over, message] of cases) {
        const error = await opsError(gw, `mutation($in: CreateShareClassInput!) { createShareClass(input: $in) { id } }`, {
          in: shareClassInput(fund.id, over),
        });
        expect(error.message).toBe(message);
        expect(error.code).toBe(message.startsWith('fund not found') ? 'NOT_FOUND' : 'BAD_USER_INPUT');
      }
      const { shareClassPage } = await asOps(gw, `{ shareClassPage { items { id } } }`);
      expect(shareClassPage.items).toEqual([]);
    });

    it('updates only the given fields; a given sub-object replaces the stored one', async () => {
      const { fund } = await aFundViaOps(gw);
      const sc = await aShareClassViaOps(gw, fund.id);
      const { updateShareClass } = await asOps(
        gw,
        `mutation($id: ID!, $in: UpdateShareClassInput!) { updateShareClass(id: $id, input: $in) { ${SHARE_CLASS_FIELDS} } }`,
        { id: sc.id, in: { status: 'closed', feesSubBps: 50, meta: { name: 'New name', manager: 'New manager' } } },
      );
      expect(updateShareClass).toEqual({ ...sc, status: 'closed', feesSubBps: 50, meta: { name: 'New name', manager: 'New manager' } });
      const missing = await opsError(gw, `mutation { updateShareClass(id: "SC999999", input: {status: "active"}) { id } }`);
      expect(missing).toEqual({ message: 'shareClassId not found', code: 'NOT_FOUND' });
    });

    it('refuses a status outside the closed list, so a typo cannot close a class, and writes nothing', async () => {
      const { fund } = await aFundViaOps(gw);
      const sc = await aShareClassViaOps(gw, fund.id);
      const typo = await opsError(gw, `mutation($id: ID!) { updateShareClass(id: $id, input: {status: "clsoed", feesSubBps: 75}) { id } }`, { id: sc.id });
      expect(typo).toEqual({ message: 'status must be one of active, suspended, closed', code: 'BAD_USER_INPUT' });
      const { shareClass } = await asOps(gw, `query($id: ID!) { shareClass(id: $id) { status feesSubBps } }`, { id: sc.id });
      expect(shareClass).toEqual({ status: 'active', feesSubBps: sc.feesSubBps });
    });

    it('the ops list filters by fund and status, newest first', async () => {
      const a = await aFundViaOps(gw);
      const b = await aFundViaOps(gw);
      const a1 = await aShareClassViaOps(gw, a.fund.id);
      const a2 = await aShareClassViaOps(gw, a.fund.id, { status: 'closed' });
      await aShareClassViaOps(gw, b.fund.id);
      const byFund = await asOps(gw, `query($f: ID) { shareClassPage(filter: {fundId: $f}) { items { id } } }`, { f: a.fund.id });
      expect(byFund.shareClassPage.items.map((i: any) => i.id)).toEqual([a2.id, a1.id]);
      const closed = await asOps(gw, `{ shareClassPage(filter: {status: "closed"}) { items { id status } } }`);
      expect(closed.shareClassPage.items).toEqual([{ id: a2.id, status: 'closed' }]);
    });
  });

  describe('tokens', () => {
    it('the first token of a share class is primary and sets defaultChainId; isPrimary on another moves the flag atomically', async () => {
      const { fund } = await aFundViaOps(gw);
      const sc = await aShareClassViaOps(gw, fund.id);
      const first = await aTokenViaOps(gw, sc.id, '1', 1);
      expect(first).toMatchObject({ id: expect.stringMatching(/^TK\d{6}$/), isPrimary: true, shareClassId: sc.id });
      const second = await aTokenViaOps(gw, sc.id, '137', 2);
      expect(second.isPrimary).toBe(false);
      const third = await aTokenViaOps(gw, sc.id, '10', 3, true);
      expect(third.isPrimary).toBe(true);
      const read = async () =>
        (await asOps(gw, `query($id: ID!) { shareClass(id: $id) { defaultChainId tokens { id isPrimary shareClass { id } } } }`, { id: sc.id })).shareClass;
      let now = await read();
      expect(now.defaultChainId).toBe('10');
      expect(now.tokens.filter((t: any) => t.isPrimary).map((t: any) => t.id)).toEqual([third.id]);

      const { updateToken } = await asOps(gw, `mutation($id: ID!) { updateToken(id: $id, input: {isPrimary: true, symbol: "P2"}) { ${TOKEN_FIELDS} } }`, {
        id: second.id,
      });
      expect(updateToken).toMatchObject({ isPrimary: true, symbol: 'P2', chainId: '137' });
      now = await read();
      expect(now.defaultChainId).toBe('137');
      expect(now.tokens.filter((t: any) => t.isPrimary).map((t: any) => t.id)).toEqual([second.id]);
      expect(now.tokens.every((t: any) => t.shareClass.id === sc.id)).toBe(true);
    });

    it('two concurrent moves of the primary flag leave exactly one primary token', async () => {
      const { fund } = await aFundViaOps(gw);
      const sc = await aShareClassViaOps(gw, fund.id);
      const tokens = [await aTokenViaOps(gw, sc.id, '1', 11), await aTokenViaOps(gw, sc.id, '2', 12), await aTokenViaOps(gw, sc.id, '3', 13)];
      await Promise.all(tokens.slice(1).map((t) => asOps(gw, `mutation($id: ID!) { updateToken(id: $id, input: {isPrimary: true}) { id } }`, { id: t.id })));
      const { tokens: page } = await asOps(gw, `query($s: ID) { tokens(filter: {shareClassId: $s}) { items { id isPrimary } } }`, { s: sc.id });
      expect(page.items.filter((t: any) => t.isPrimary)).toHaveLength(1);
    });

    it('refuses to unset the primary flag, a bad chain id or address, and a contract already registered on the chain', async () => {
      const { fund } = await aFundViaOps(gw);
      const sc = await aShareClassViaOps(gw, fund.id);
      const t = await aTokenViaOps(gw, sc.id, '1', 21);
      expect((await opsError(gw, `mutation($id: ID!) { updateToken(id: $id, input: {isPrimary: false}) { id } }`, { id: t.id })).message).toMatch(
        /^isPrimary cannot be set to false/,
      );
      const base = { shareClassId: sc.id, chainId: '1', contractAddress: evmAddress(22), name: 'N', symbol: 'S', decimals: 6 };
      const create = (over: Record<string, unknown>) =>
        opsError(gw, `mutation($in: CreateTokenInput!) { createToken(input: $in) { id } }`, { in: { ...base, ...over } });
      expect(await create({ chainId: 'mainnet' })).toEqual({ message: 'chainId must be a numeric EVM chain id', code: 'BAD_USER_INPUT' });
      expect(await create({ contractAddress: '0x12' })).toEqual({
        message: 'contractAddress must be an EVM address (0x and 40 hex digits)',
        code: 'BAD_USER_INPUT',
      });
      expect(await create({ decimals: 40 })).toEqual({ message: 'decimals must be an integer from 0 to 36', code: 'BAD_USER_INPUT' });
      expect(await create({ contractAddress: evmAddress(21).toUpperCase().replace('0X', '0x') })).toEqual({
        message: `a token with contract ${evmAddress(21).toUpperCase().replace('0X', '0x')} on chain 1 already exists`,
        code: 'CONFLICT',
      });
      expect(await create({ shareClassId: 'SC999999' })).toEqual({ message: 'shareClassId not found', code: 'NOT_FOUND' });
    });
  });
});
