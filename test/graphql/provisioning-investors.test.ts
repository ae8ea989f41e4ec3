import { startTestGateway, type TestGateway } from '../support/gateway';
import { aFundViaOps, aShareClassViaOps, asOps, evmAddress, opsError } from '../support/ops.factories';

describe('GraphQL ops provisioning: investors', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  async function world() {
    const { fund } = await aFundViaOps(gw);
    const sc = await aShareClassViaOps(gw, fund.id);
    const other = await aShareClassViaOps(gw, fund.id);
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
    const add = (n: number) =>
      `mutation { addInvestorWallet(input: {investorId: "${investorId}", chainId: "11155111", address: "${evmAddress(n)}"}) { ${W} } }`;
    const added = (await asOps(gw, add(41))).addInvestorWallet;
    expect(added).toMatchObject({ status: 'pending', whitelistedAt: null, investorId, address: evmAddress(41) });
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
      { address: evmAddress(41), status: 'removed' },
      { address: evmAddress(43), status: 'pending' },
    ]);
  });

  it('two concurrent wallets on one chain: one is added, the other is CONFLICT', async () => {
    const { investorId } = await world();
    const token = await gw.opsToken();
    const results = await Promise.all(
      [51, 52].map((n) =>
        gw.graphql(`mutation { addInvestorWallet(input: {investorId: "${investorId}", chainId: "1", address: "${evmAddress(n)}"}) { address } }`, undefined, {
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
