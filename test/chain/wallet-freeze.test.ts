import { ChainTransaction } from '../../src/modules/chain/chain-transaction.entity';
import { TOKEN_ABI } from '../../src/modules/chain/abis/token';
import { WalletFreeze, WalletFreezeStatus } from '../../src/modules/investor/wallet-freeze.entity';
import { AuditLogEntry } from '../../src/modules/audit/audit-log.entity';
import { aHolding, anInvestor } from '../support/factories';
import { bearerOf } from '../support/auth.factories';
import { alias } from '../support/ids';
import { approverToken } from '../support/approval.factories';
import { eventually, randomWallet } from '../support/chain';
import { aChainMarket, aWhitelistedWallet, onTheWorkerChain, opsCall } from '../support/chain.factories';

/*
 * Freezing a wallet on a share class's token (docs/approvals.md#freezing-a-wallet): one operator
 * freezes at once, with a reason; the gateway then refuses the wallet's redemptions and transfers
 * of the class on every door (409); unfreezing is a four-eyes request.
 */
jest.setTimeout(240_000);

const FREEZE = `mutation($i: ID!, $sc: String!, $r: String!) { freezeInvestorWallet(investorId: $i, chainId: "31337", shareClassId: $sc, reason: $r) { id status reason frozenBy walletAddress } }`;
const REQUEST_UNFREEZE = `mutation($f: ID!, $r: String!) { requestWalletUnfreeze(freezeId: $f, reason: $r) { id status effect { walletUnfreeze { freezeId wallet tokenAddress } } } }`;
const REDEEM_GQL = `mutation($input: OneStepRedemptionInput!) { placeOneStepRedemption(input: $input) { id } }`;
const FROZEN = /^the investor's wallet 0x[0-9a-f]{40} is frozen on share class SC\d+: its redemptions and transfers are refused until an approved unfreeze$/;

describe('Freezing a wallet on a share class', () => {
  const world = onTheWorkerChain();

  async function aHolderWithAWallet() {
    const { gw } = world;
    const m = await aChainMarket(gw);
    const wallet = randomWallet();
    await aWhitelistedWallet(gw, m.investor.id, wallet);
    await aHolding(gw.em(), m.investor, m.shareClass, '50');
    return { m, wallet };
  }

  const isFrozen = (token: string, wallet: string) => world.chain.read<boolean>(token, TOKEN_ABI, 'isFrozen', [wallet]);

  /** The three doors of a redemption: surface R (by host), surface O (bearer, O ids), GraphQL (ops). */
  async function redemptions(m: Awaited<ReturnType<typeof aChainMarket>>) {
    const { gw } = world;
    const r = await gw.api('POST', '/orders/redeem', {
      host: 'dist-a.test',
      body: { distributorId: m.distributor.id, investorId: m.investor.id, shareClassId: m.shareClass.id, tokenCount: 5 },
    });
    const o = await gw.api('POST', '/orders/redeem', {
      headers: await bearerOf(gw, m.distributor),
      body: { distributorId: alias(m.distributor.id, 'PT'), userId: alias(m.investor.id, 'US'), shareClassId: m.shareClass.id, tokenCount: 5 },
    });
    const g = await opsCall(gw, REDEEM_GQL, {
      input: { distributorId: m.distributor.id, investorId: m.investor.id, shareClassId: m.shareClass.id, tokenCount: '5' },
    });
    return { r, o, g };
  }

  it('an operator freezes at once with a reason (audited); every door then refuses its redemption with 409, and forced transfers too', async () => {
    const { gw } = world;
    const { m, wallet } = await aHolderWithAWallet();

    const frozen = await opsCall(gw, FREEZE, { i: m.investor.id, sc: m.shareClass.id, r: 'court seizure order 2026/7' });
    expect(frozen.errors).toBeUndefined();
    expect(frozen.data.freezeInvestorWallet).toMatchObject({ status: 'freezing', reason: 'court seizure order 2026/7', walletAddress: wallet.toLowerCase() });
    const row = await eventually('the freeze confirmed', async () => {
      const f = await gw.em().findOneOrFail(WalletFreeze, { id: frozen.data.freezeInvestorWallet.id });
      if (f.status === WalletFreezeStatus.failed) throw new Error(f.error);
      return f.status === WalletFreezeStatus.frozen ? f : undefined;
    });
    expect(await isFrozen(m.token.contractAddress, wallet)).toBe(true);
    const audit = await gw.em().find(AuditLogEntry, { operation: 'freezeInvestorWallet' });
    expect(JSON.stringify(audit.map((a) => a.arguments))).toContain('court seizure order 2026/7');

    // The register and the investor's page show it.
    const read = await opsCall(
      gw,
      `query($sc: ID!, $i: ID!) { positions(shareClassId: $sc) { holders { investorId frozen } } investorPositions(investorId: $i) { frozen } investor(id: $i) { wallets { freezes { id shareClassId status } } } }`,
      { sc: m.shareClass.id, i: m.investor.id },
    );
    expect(read.data.positions.holders).toEqual([{ investorId: m.investor.id, frozen: true }]);
    expect(read.data.investorPositions).toEqual([{ frozen: true }]);
    expect(read.data.investor.wallets[0].freezes).toEqual([{ id: row.id, shareClassId: m.shareClass.id, status: 'frozen' }]);

    // One check, on every door: 409 in the envelope, the GraphQL CONFLICT.
    const { r, o, g } = await redemptions(m);
    expect([r.status, r.body.isError, r.body.errorMsg]).toEqual([409, true, expect.stringMatching(FROZEN)]);
    expect([o.status, o.body.isError, o.body.errorMsg]).toEqual([409, true, expect.stringMatching(FROZEN)]);
    expect(g.errors?.[0]).toMatchObject({ message: expect.stringMatching(FROZEN), extensions: { code: 'CONFLICT' } });

    const heir = await anInvestor(gw.em(), m.distributor, { grants: [m.shareClass], walletChain: null });
    const transfer = await opsCall(gw, `mutation($input: ForcedTransferInput!) { requestForcedTransfer(input: $input) { id } }`, {
      input: { shareClassId: m.shareClass.id, chainId: '31337', fromInvestorId: m.investor.id, toInvestorId: heir.id, quantity: '1', reason: 'estate' },
    });
    expect(transfer.errors?.[0]).toMatchObject({ message: expect.stringMatching(FROZEN), extensions: { code: 'CONFLICT' } });

    // Twice is a 409, not a second intent.
    const again = await opsCall(gw, FREEZE, { i: m.investor.id, sc: m.shareClass.id, r: 'again' });
    expect(again.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    expect(await gw.em().count(ChainTransaction, { purpose: 'wallet.freeze' })).toBe(1);
  });

  it('refuses an empty reason on the server, writing nothing', async () => {
    const { gw } = world;
    const { m } = await aHolderWithAWallet();
    const empty = await opsCall(gw, FREEZE, { i: m.investor.id, sc: m.shareClass.id, r: '   ' });
    expect(empty.errors?.[0]).toMatchObject({ message: 'reason is required', extensions: { code: 'BAD_USER_INPUT' } });
    expect(await gw.em().count(WalletFreeze, {})).toBe(0);
    expect(await gw.em().count(ChainTransaction, { purpose: 'wallet.freeze' })).toBe(0);
  });

  it('unfreezing is a four-eyes request: the requester may not approve it; once another approves, the chain and the gateway let the wallet redeem again', async () => {
    const { gw } = world;
    const { m, wallet } = await aHolderWithAWallet();
    const frozen = await opsCall(gw, FREEZE, { i: m.investor.id, sc: m.shareClass.id, r: 'suspicious activity' });
    const id = frozen.data.freezeInvestorWallet.id as string;
    await eventually('frozen', async () => (await gw.em().findOneOrFail(WalletFreeze, { id })).status === WalletFreezeStatus.frozen);

    const noReason = await opsCall(gw, REQUEST_UNFREEZE, { f: id, r: '' });
    expect(noReason.errors?.[0]?.message).toBe('reason is required');
    const requested = await opsCall(gw, REQUEST_UNFREEZE, { f: id, r: 'cleared by compliance' });
    expect(requested.errors).toBeUndefined();
    expect(requested.data.requestWalletUnfreeze).toMatchObject({
      status: 'requested',
      effect: { walletUnfreeze: { freezeId: id, wallet: wallet.toLowerCase(), tokenAddress: m.token.contractAddress.toLowerCase() } },
    });
    const requestId = requested.data.requestWalletUnfreeze.id as string;
    expect(await gw.em().count(ChainTransaction, { purpose: 'wallet.thaw' })).toBe(0);
    const self = await opsCall(gw, `mutation($id: ID!) { approveRequest(id: $id) { id } }`, { id: requestId });
    expect(self.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect((await redemptions(m)).r.status).toBe(409);

    const approved = await gw.graphql(
      `mutation($id: ID!) { approveRequest(id: $id) { status result } }`,
      { id: requestId },
      { token: await approverToken(gw) },
    );
    expect(approved.body.errors).toBeUndefined();
    expect(approved.body.data!.approveRequest).toMatchObject({ status: 'executed', result: { freezeId: id, status: 'unfreezing' } });
    await eventually('the freeze lifted', async () => {
      const f = await gw.em().findOneOrFail(WalletFreeze, { id });
      if (f.error) throw new Error(f.error);
      return f.status === WalletFreezeStatus.lifted;
    });
    expect(await isFrozen(m.token.contractAddress, wallet)).toBe(false);
    const { r } = await redemptions(m);
    expect([r.status, r.body.data?.status]).toEqual([200, 'pending']);
  });
});
