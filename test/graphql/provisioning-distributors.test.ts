import { startTestGateway, type TestGateway } from '../support/gateway';
import { aDistributorViaOps, aFundViaOps, aShareClassViaOps, asOps, evmAddress, opsError } from '../support/ops.factories';

describe('GraphQL ops provisioning: distributors', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  it('creates a distributor (DT######) whose surface-O alias is PT with the same number, and finds it by either', async () => {
    const d = await aDistributorViaOps(gw);
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
    const a = await aDistributorViaOps(gw, 'A');
    const b = await aDistributorViaOps(gw, 'B');
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
    const a = await aDistributorViaOps(gw, 'A');
    const b = await aDistributorViaOps(gw, 'B');
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
    const d = await aDistributorViaOps(gw);
    const { fund } = await aFundViaOps(gw);
    const sc = await aShareClassViaOps(gw, fund.id);
    const set = (address: string) =>
      asOps(
        gw,
        `mutation($d: ID!, $a: String!) { setDistributorWallet(input: {distributorId: $d, chainId: "1", address: $a}) { chainId address distributorId } }`,
        { d: d.id, a: address },
      );
    await set(evmAddress(31));
    await set(evmAddress(32));
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
    expect(read.distributor).toEqual({ wallets: [{ chainId: '1', address: evmAddress(32) }], grants: [{ shareClassId: sc.id, deliveryMode: 'hold' }] });

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
      (await opsError(gw, `mutation($d: ID!, $s: ID!) { revokeShareClass(input: {distributorId: $d, shareClassId: $s}) { id } }`, { d: d.id, s: sc.id })).code,
    ).toBe('NOT_FOUND');
  });

  it('pages through distributors newest first with a cursor', async () => {
    const made = [];
    for (let i = 0; i < 5; i++) made.push((await aDistributorViaOps(gw, `D${i}`)).id);
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
