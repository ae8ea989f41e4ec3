import { startTestGateway, type TestGateway } from '../support/gateway';
import { asOps, opsError, SHARE_CLASS_FIELDS, shareClassInput } from '../support/ops.factories';

const ADDR = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;

describe('GraphQL ops provisioning', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  async function aFundViaOps() {
    const { createIssuer } = await asOps(
      gw,
      `mutation { createIssuer(input: {name: "Issuer", lei: "5493001KJTIIGC8Y1R12", jurisdiction: "LU"}) { id name lei createdBy } }`,
    );
    const { createFund } = await asOps(gw, `mutation($i: ID!) { createFund(input: {issuerId: $i, name: "Fund"}) { id issuerId } }`, { i: createIssuer.id });
    return { issuer: createIssuer, fund: createFund };
  }

  async function aShareClassViaOps(fundId: string, over: Record<string, unknown> = {}) {
    const { createShareClass } = await asOps(gw, `mutation($in: CreateShareClassInput!) { createShareClass(input: $in) { ${SHARE_CLASS_FIELDS} } }`, {
      in: shareClassInput(fundId, over),
    });
    return createShareClass;
  }

  const TOKEN = `id shareClassId chainId contractAddress name symbol decimals isPrimary`;
  async function aToken(shareClassId: string, chainId: string, n: number, isPrimary?: boolean) {
    const { createToken } = await asOps(gw, `mutation($in: CreateTokenInput!) { createToken(input: $in) { ${TOKEN} } }`, {
      in: { shareClassId, chainId, contractAddress: ADDR(n), name: `Token ${n}`, symbol: `T${n}`, decimals: 6, isPrimary },
    });
    return createToken;
  }

  describe('issuers and funds', () => {
    it('creates an issuer (IS######) stamped with the ops token name, and updates only the given fields', async () => {
      const { issuer } = await aFundViaOps();
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
      const a = await aFundViaOps();
      await aFundViaOps();
      const sc = await aShareClassViaOps(a.fund.id);
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
      const { fund } = await aFundViaOps();
      const sc = await aShareClassViaOps(fund.id);
      const expected = shareClassInput(fund.id);
      const { metrics, ...rest } = expected;
      expect(sc).toMatchObject({ ...rest, id: expect.stringMatching(/^SC\d{6}$/), status: 'active', defaultChainId: null, createdBy: 'test-ops' });
      expect(sc.metrics).toEqual({ ...metrics, tvl_fiat: '1000.1', change7D: '-0.5' }); // canonical decimal strings
      await aToken(sc.id, '137', 1);
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
      const { fund } = await aFundViaOps();
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
      const { fund } = await aFundViaOps();
      const sc = await aShareClassViaOps(fund.id);
      const { updateShareClass } = await asOps(
        gw,
        `mutation($id: ID!, $in: UpdateShareClassInput!) { updateShareClass(id: $id, input: $in) { ${SHARE_CLASS_FIELDS} } }`,
        { id: sc.id, in: { status: 'closed', feesSubBps: 50, meta: { name: 'New name', manager: 'New manager' } } },
      );
      expect(updateShareClass).toEqual({ ...sc, status: 'closed', feesSubBps: 50, meta: { name: 'New name', manager: 'New manager' } });
      const missing = await opsError(gw, `mutation { updateShareClass(id: "SC999999", input: {status: "active"}) { id } }`);
      expect(missing).toEqual({ message: 'shareClassId not found', code: 'NOT_FOUND' });
    });

    it('the ops list filters by fund and status, newest first', async () => {
      const a = await aFundViaOps();
      const b = await aFundViaOps();
      const a1 = await aShareClassViaOps(a.fund.id);
      const a2 = await aShareClassViaOps(a.fund.id, { status: 'closed' });
      await aShareClassViaOps(b.fund.id);
      const byFund = await asOps(gw, `query($f: ID) { shareClassPage(filter: {fundId: $f}) { items { id } } }`, { f: a.fund.id });
      expect(byFund.shareClassPage.items.map((i: any) => i.id)).toEqual([a2.id, a1.id]);
      const closed = await asOps(gw, `{ shareClassPage(filter: {status: "closed"}) { items { id status } } }`);
      expect(closed.shareClassPage.items).toEqual([{ id: a2.id, status: 'closed' }]);
    });
  });

  describe('tokens', () => {
    it('the first token of a share class is primary and sets defaultChainId; isPrimary on another moves the flag atomically', async () => {
      const { fund } = await aFundViaOps();
      const sc = await aShareClassViaOps(fund.id);
      const first = await aToken(sc.id, '1', 1);
      expect(first).toMatchObject({ id: expect.stringMatching(/^TK\d{6}$/), isPrimary: true, shareClassId: sc.id });
      const second = await aToken(sc.id, '137', 2);
      expect(second.isPrimary).toBe(false);
      const third = await aToken(sc.id, '10', 3, true);
      expect(third.isPrimary).toBe(true);
      const read = async () =>
        (await asOps(gw, `query($id: ID!) { shareClass(id: $id) { defaultChainId tokens { id isPrimary shareClass { id } } } }`, { id: sc.id })).shareClass;
      let now = await read();
      expect(now.defaultChainId).toBe('10');
      expect(now.tokens.filter((t: any) => t.isPrimary).map((t: any) => t.id)).toEqual([third.id]);

      const { updateToken } = await asOps(gw, `mutation($id: ID!) { updateToken(id: $id, input: {isPrimary: true, symbol: "P2"}) { ${TOKEN} } }`, {
        id: second.id,
      });
      expect(updateToken).toMatchObject({ isPrimary: true, symbol: 'P2', chainId: '137' });
      now = await read();
      expect(now.defaultChainId).toBe('137');
      expect(now.tokens.filter((t: any) => t.isPrimary).map((t: any) => t.id)).toEqual([second.id]);
      expect(now.tokens.every((t: any) => t.shareClass.id === sc.id)).toBe(true);
    });

    it('two concurrent moves of the primary flag leave exactly one primary token', async () => {
      const { fund } = await aFundViaOps();
      const sc = await aShareClassViaOps(fund.id);
      const tokens = [await aToken(sc.id, '1', 11), await aToken(sc.id, '2', 12), await aToken(sc.id, '3', 13)];
      await Promise.all(tokens.slice(1).map((t) => asOps(gw, `mutation($id: ID!) { updateToken(id: $id, input: {isPrimary: true}) { id } }`, { id: t.id })));
      const { tokens: page } = await asOps(gw, `query($s: ID) { tokens(filter: {shareClassId: $s}) { items { id isPrimary } } }`, { s: sc.id });
      expect(page.items.filter((t: any) => t.isPrimary)).toHaveLength(1);
    });

    it('refuses to unset the primary flag, a bad chain id or address, and a contract already registered on the chain', async () => {
      const { fund } = await aFundViaOps();
      const sc = await aShareClassViaOps(fund.id);
      const t = await aToken(sc.id, '1', 21);
      expect((await opsError(gw, `mutation($id: ID!) { updateToken(id: $id, input: {isPrimary: false}) { id } }`, { id: t.id })).message).toMatch(
        /^isPrimary cannot be set to false/,
      );
      const base = { shareClassId: sc.id, chainId: '1', contractAddress: ADDR(22), name: 'N', symbol: 'S', decimals: 6 };
      const create = (over: Record<string, unknown>) =>
        opsError(gw, `mutation($in: CreateTokenInput!) { createToken(input: $in) { id } }`, { in: { ...base, ...over } });
      expect(await create({ chainId: 'mainnet' })).toEqual({ message: 'chainId must be a numeric EVM chain id', code: 'BAD_USER_INPUT' });
      expect(await create({ contractAddress: '0x12' })).toEqual({
        message: 'contractAddress must be an EVM address (0x and 40 hex digits)',
        code: 'BAD_USER_INPUT',
      });
      expect(await create({ decimals: 40 })).toEqual({ message: 'decimals must be an integer from 0 to 36', code: 'BAD_USER_INPUT' });
      expect(await create({ contractAddress: ADDR(21).toUpperCase().replace('0X', '0x') })).toEqual({
        message: `a token with contract ${ADDR(21).toUpperCase().replace('0X', '0x')} on chain 1 already exists`,
        code: 'CONFLICT',
      });
      expect(await create({ shareClassId: 'SC999999' })).toEqual({ message: 'shareClassId not found', code: 'NOT_FOUND' });
    });
  });

  describe('distributors', () => {
    async function aDistributorViaOps(name = 'Dist') {
      return (await asOps(gw, `mutation($n: String!) { createDistributor(input: {name: $n}) { id partnerId status } }`, { n: name })).createDistributor;
    }

    it('creates a distributor (DT######) whose surface-O alias is PT with the same number, and finds it by either', async () => {
      const d = await aDistributorViaOps();
      expect(d).toEqual({ id: expect.stringMatching(/^DT\d{6}$/), partnerId: `PT${d.id.slice(2)}`, status: 'active' });
      const byAlias = await asOps(gw, `query($id: ID!) { distributor(id: $id) { id } }`, { id: d.partnerId });
      expect(byAlias.distributor.id).toBe(d.id);
      const { updateDistributor } = await asOps(gw, `mutation($id: ID!) { updateDistributor(id: $id, input: {status: "suspended"}) { status name } }`, {
        id: d.id,
      });
      expect(updateDistributor).toEqual({ status: 'suspended', name: 'Dist' });
      expect(await opsError(gw, `{ distributor(id: "DT999999") { id } }`)).toEqual({ message: 'distributor not found: DT999999', code: 'NOT_FOUND' });
    });

    it('maps hostnames in lower case; a hostname already taken is CONFLICT (409 semantics); removing it makes surface R answer 403', async () => {
      const a = await aDistributorViaOps('A');
      const b = await aDistributorViaOps('B');
      const { addDistributorHost } = await asOps(
        gw,
        `mutation($d: ID!) { addDistributorHost(input: {distributorId: $d, hostname: " Partner.Example.COM. "}) { hostname distributorId distributor { id } } }`,
        { d: a.id },
      );
      expect(addDistributorHost).toEqual({ hostname: 'partner.example.com', distributorId: a.id, distributor: { id: a.id } });
      const taken = await opsError(gw, `mutation($d: ID!) { addDistributorHost(input: {distributorId: $d, hostname: "PARTNER.example.com"}) { hostname } }`, {
        d: b.id,
      });
      expect(taken).toEqual({ message: 'hostname partner.example.com is already mapped to a distributor', code: 'CONFLICT' });
      expect(
        (await opsError(gw, `mutation($d: ID!) { addDistributorHost(input: {distributorId: $d, hostname: "https://x.test:443/"}) { hostname } }`, { d: b.id }))
          .code,
      ).toBe('BAD_USER_INPUT');

      const reachable = await gw.api('GET', '/funds/shareclass/all', { host: 'partner.example.com' });
      expect(reachable.body).toEqual({ isError: false, errorMsg: 'NA', data: { items: [], count: 0 } });

      const { removeDistributorHost } = await asOps(gw, `mutation { removeDistributorHost(hostname: "partner.example.com") { id hosts { hostname } } }`);
      expect(removeDistributorHost).toEqual({ id: a.id, hosts: [] });
      const gone = await gw.api('GET', '/funds/shareclass/all', { host: 'partner.example.com' });
      expect(gone.status).toBe(403);
      expect(await opsError(gw, `mutation { removeDistributorHost(hostname: "partner.example.com") { id } }`)).toEqual({
        message: 'hostname partner.example.com is not mapped',
        code: 'NOT_FOUND',
      });
    });

    it('two concurrent mappings of one hostname: one wins, the other is CONFLICT', async () => {
      const a = await aDistributorViaOps('A');
      const b = await aDistributorViaOps('B');
      const token = await gw.opsToken();
      const results = await Promise.all(
        [a, b].map((d) =>
          gw.graphql(`mutation($d: ID!) { addDistributorHost(input: {distributorId: $d, hostname: "race.test"}) { distributorId } }`, { d: d.id }, { token }),
        ),
      );
      const errors = results.flatMap((r) => r.body.errors ?? []);
      expect(errors).toEqual([expect.objectContaining({ message: 'hostname race.test is already mapped to a distributor', extensions: { code: 'CONFLICT' } })]);
    });

    it('sets one wallet per chain (setting again replaces it), and grants share classes passthrough or hold', async () => {
      const d = await aDistributorViaOps();
      const { fund } = await aFundViaOps();
      const sc = await aShareClassViaOps(fund.id);
      const set = (address: string) =>
        asOps(
          gw,
          `mutation($d: ID!, $a: String!) { setDistributorWallet(input: {distributorId: $d, chainId: "1", address: $a}) { chainId address distributorId } }`,
          { d: d.id, a: address },
        );
      await set(ADDR(31));
      await set(ADDR(32));
      const grant = (mode: string) =>
        asOps(
          gw,
          `mutation($d: ID!, $s: ID!) { grantShareClass(input: {distributorId: $d, shareClassId: $s, deliveryMode: ${mode}}) { deliveryMode distributorId shareClassId shareClass { id } distributor { id } } }`,
          { d: d.id, s: sc.id },
        );
      expect((await grant('passthrough')).grantShareClass).toEqual({
        deliveryMode: 'passthrough',
        distributorId: d.id,
        shareClassId: sc.id,
        shareClass: { id: sc.id },
        distributor: { id: d.id },
      });
      await grant('hold');
      const read = await asOps(gw, `query($id: ID!) { distributor(id: $id) { wallets { chainId address } grants { shareClassId deliveryMode } } }`, {
        id: d.id,
      });
      expect(read.distributor).toEqual({ wallets: [{ chainId: '1', address: ADDR(32) }], grants: [{ shareClassId: sc.id, deliveryMode: 'hold' }] });

      const bad = await gw.graphql(
        `mutation($d: ID!, $s: ID!) { grantShareClass(input: {distributorId: $d, shareClassId: $s, deliveryMode: later}) { deliveryMode } }`,
        { d: d.id, s: sc.id },
        { token: await gw.opsToken() },
      );
      expect(bad.body.errors![0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(
        await opsError(gw, `mutation($d: ID!) { grantShareClass(input: {distributorId: $d, shareClassId: "SC999999", deliveryMode: hold}) { deliveryMode } }`, {
          d: d.id,
        }),
      ).toEqual({ message: 'shareClassId not found', code: 'NOT_FOUND' });

      const { revokeShareClass } = await asOps(
        gw,
        `mutation($d: ID!, $s: ID!) { revokeShareClass(input: {distributorId: $d, shareClassId: $s}) { grants { shareClassId } } }`,
        { d: d.id, s: sc.id },
      );
      expect(revokeShareClass.grants).toEqual([]);
      expect(
        (await opsError(gw, `mutation($d: ID!, $s: ID!) { revokeShareClass(input: {distributorId: $d, shareClassId: $s}) { id } }`, { d: d.id, s: sc.id }))
          .code,
      ).toBe('NOT_FOUND');
    });

    it('pages through distributors newest first with a cursor', async () => {
      const made = [];
      for (let i = 0; i < 5; i++) made.push((await aDistributorViaOps(`D${i}`)).id);
      const seen: string[] = [];
      let after: string | null = null;
      do {
        const { distributors }: any = await asOps(gw, `query($after: String) { distributors(page: {first: 2, after: $after}) { items { id } nextCursor } }`, {
          after,
        });
        expect(distributors.items.length).toBeLessThanOrEqual(2);
        seen.push(...distributors.items.map((i: any) => i.id));
        after = distributors.nextCursor;
      } while (after);
      expect(seen).toEqual([...made].reverse());
      expect((await opsError(gw, `{ distributors(page: {first: 0}) { items { id } } }`)).message).toBe('limit must be an integer from 1 to 1000');
      expect((await opsError(gw, `{ distributors(page: {after: "garbage"}) { items { id } } }`)).message).toBe('invalid cursor');
    });
  });

  describe('investors', () => {
    async function world() {
      const { fund } = await aFundViaOps();
      const sc = await aShareClassViaOps(fund.id);
      const other = await aShareClassViaOps(fund.id);
      const { createDistributor: d } = await asOps(gw, `mutation { createDistributor(input: {name: "D"}) { id } }`);
      await asOps(gw, `mutation($d: ID!) { addDistributorHost(input: {distributorId: $d, hostname: "inv.test"}) { hostname } }`, { d: d.id });
      await asOps(
        gw,
        `mutation($d: ID!, $s: ID!) { grantShareClass(input: {distributorId: $d, shareClassId: $s, deliveryMode: passthrough}) { deliveryMode } }`,
        { d: d.id, s: sc.id },
      );
      const reg = await gw.api('POST', '/investor/register', {
        host: 'inv.test',
        body: { distributorId: d.id, externalInvestorId: 'u-1', email: 'Mixed.Case@Example.com' },
      });
      return { sc, other, distributorId: d.id, investorId: reg.body.data.investorId as string };
    }

    it('grants an investor a share class its distributor may sell; others are refused; grants show in grantedSC', async () => {
      const { sc, other, investorId } = await world();
      const grant = (s: string) =>
        `mutation { grantInvestorShareClass(input: {investorId: "${investorId}", shareClassId: "${s}"}) { grantedSC grantedShareClasses { id } } }`;
      expect((await asOps(gw, grant(sc.id))).grantInvestorShareClass).toEqual({ grantedSC: [sc.id], grantedShareClasses: [{ id: sc.id }] });
      expect((await asOps(gw, grant(sc.id))).grantInvestorShareClass.grantedSC).toEqual([sc.id]); // twice is harmless
      expect(await opsError(gw, grant(other.id))).toMatchObject({ code: 'CONFLICT' });
      expect(await opsError(gw, grant('SC999999'))).toEqual({ message: 'shareClassId not found', code: 'NOT_FOUND' });
      const revoked = await asOps(gw, `mutation { revokeInvestorShareClass(input: {investorId: "${investorId}", shareClassId: "${sc.id}"}) { grantedSC } }`);
      expect(revoked.revokeInvestorShareClass.grantedSC).toEqual([]);
      expect(await opsError(gw, `mutation { grantInvestorShareClass(input: {investorId: "IN999999", shareClassId: "${sc.id}"}) { id } }`)).toEqual({
        message: 'investor not found: IN999999',
        code: 'NOT_FOUND',
      });
    });

    it('one wallet in use per chain: pending, whitelisted, removed as compromised with reason and time; then a new one may be added', async () => {
      const { investorId } = await world();
      const W = `chainId address status whitelistedAt removedAt removalReason investorId updatedBy`;
      const add = (n: number) => `mutation { addInvestorWallet(input: {investorId: "${investorId}", chainId: "11155111", address: "${ADDR(n)}"}) { ${W} } }`;
      const added = (await asOps(gw, add(41))).addInvestorWallet;
      expect(added).toMatchObject({ status: 'pending', whitelistedAt: null, investorId, address: ADDR(41) });
      expect(await opsError(gw, add(42))).toEqual({
        message: `investor ${investorId} already has a wallet in use on chain 11155111; remove it from the whitelist first`,
        code: 'CONFLICT',
      });

      gw.clock.set(new Date(Date.UTC(2030, 4, 1, 9)));
      const wl = (await asOps(gw, `mutation { whitelistInvestorWallet(input: {investorId: "${investorId}", chainId: "11155111"}) { ${W} } }`))
        .whitelistInvestorWallet;
      expect(wl).toMatchObject({ status: 'whitelisted', whitelistedAt: Date.UTC(2030, 4, 1, 9) });

      expect(
        (await opsError(gw, `mutation { removeInvestorWallet(input: {investorId: "${investorId}", chainId: "11155111", reason: ""}) { status } }`)).message,
      ).toBe('reason is required');
      gw.clock.advance(60_000);
      const removed = (
        await asOps(
          gw,
          `mutation { removeInvestorWallet(input: {investorId: "${investorId}", chainId: "11155111", reason: "compromised: key leaked"}) { ${W} } }`,
          undefined,
          { 'x-actor': 'security-desk' },
        )
      ).removeInvestorWallet;
      expect(removed).toMatchObject({
        status: 'removed',
        removedAt: Date.UTC(2030, 4, 1, 9, 1),
        removalReason: 'compromised: key leaked',
        updatedBy: 'security-desk',
      });
      expect((await opsError(gw, `mutation { whitelistInvestorWallet(input: {investorId: "${investorId}", chainId: "11155111"}) { status } }`)).code).toBe(
        'NOT_FOUND',
      );

      await asOps(gw, add(43));
      const { investor } = await asOps(gw, `query { investor(id: "${investorId}") { wallets { address status } } }`);
      expect(investor.wallets).toEqual([
        { address: ADDR(41), status: 'removed' },
        { address: ADDR(43), status: 'pending' },
      ]);
    });

    it('two concurrent wallets on one chain: one is added, the other is CONFLICT', async () => {
      const { investorId } = await world();
      const token = await gw.opsToken();
      const results = await Promise.all(
        [51, 52].map((n) =>
          gw.graphql(`mutation { addInvestorWallet(input: {investorId: "${investorId}", chainId: "1", address: "${ADDR(n)}"}) { address } }`, undefined, {
            token,
          }),
        ),
      );
      const errors = results.flatMap((r) => r.body.errors ?? []);
      expect(errors).toEqual([expect.objectContaining({ extensions: { code: 'CONFLICT' } })]);
      expect(errors[0].message).toBe(`investor ${investorId} already has a wallet in use on chain 1; remove it from the whitelist first`);
    });

    it('lists investors by distributor, email (case-insensitive), externalInvestorId and status, and resolves them by IN or US id', async () => {
      const { distributorId, investorId } = await world();
      const second = await gw.api('POST', '/investor/register', {
        host: 'inv.test',
        body: { distributorId, externalInvestorId: 'u-2', email: 'other@example.com' },
      });
      const ids = async (filter: Record<string, unknown>) =>
        (await asOps(gw, `query($f: InvestorFilter) { investors(filter: $f) { items { id } } }`, { f: filter })).investors.items.map((i: any) => i.id);
      expect(await ids({ distributorId })).toEqual([second.body.data.investorId, investorId]);
      expect(await ids({ distributorId: `PT${distributorId.slice(2)}` })).toHaveLength(2);
      expect(await ids({ email: 'mixed.case@EXAMPLE.com' })).toEqual([investorId]);
      expect(await ids({ externalInvestorId: 'u-2' })).toEqual([second.body.data.investorId]);
      expect(await ids({ status: 'active', email: 'nobody@example.com' })).toEqual([]);
      expect(await ids({ distributorId: 'DT999999' })).toEqual([]);
      const byUser = await asOps(gw, `query($id: ID!) { investor(id: $id) { id userId distributorId distributor { id partnerId } } }`, {
        id: `US${investorId.slice(2)}`,
      });
      expect(byUser.investor).toEqual({
        id: investorId,
        userId: `US${investorId.slice(2)}`,
        distributorId,
        distributor: { id: distributorId, partnerId: `PT${distributorId.slice(2)}` },
      });
    });

    it('reads an investor or distributor id strictly: the same number under another kind or no form is not found', async () => {
      const { distributorId, investorId } = await world();
      const n = investorId.slice(2);
      const d = distributorId.slice(2);
      for (const id of [`SC${n}`, `FN${n}`, `DT${n}`, `PT${n}`, `OR${n}`, `in${n}`, `IN${n}0`, n]) {
        expect(await opsError(gw, `query($id: ID!) { investor(id: $id) { id } }`, { id })).toEqual({ message: `investor not found: ${id}`, code: 'NOT_FOUND' });
      }
      for (const id of [`SC${d}`, `IN${d}`, `US${d}`, `IS${d}`, `dt${d}`, d]) {
        expect(await opsError(gw, `query($id: ID!) { distributor(id: $id) { id } }`, { id })).toEqual({
          message: `distributor not found: ${id}`,
          code: 'NOT_FOUND',
        });
      }
      for (const id of [`IN${n}`, `US${n}`]) expect((await asOps(gw, `query($id: ID!) { investor(id: $id) { id } }`, { id })).investor.id).toBe(investorId);
      for (const id of [`DT${d}`, `PT${d}`])
        expect((await asOps(gw, `query($id: ID!) { distributor(id: $id) { id } }`, { id })).distributor.id).toBe(distributorId);
      const filtered = await asOps(gw, `query($f: InvestorFilter) { investors(filter: $f) { items { id } } }`, { f: { distributorId: `SC${d}` } });
      expect(filtered.investors.items).toEqual([]);
    });
  });
});
