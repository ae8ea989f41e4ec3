import { ChainTransaction } from '../../src/modules/chain/chain-transaction.entity';
import { ForcedTransfer, ForcedTransferStatus } from '../../src/modules/approval/forced-transfer.entity';
import { InvestorWallet, WalletStatus } from '../../src/modules/investor/investor.entity';
import { rawRows } from '../../src/persistence/raw-query';
import { aOneStepOrder } from '../support/one-step.factories';
import { anInvestor } from '../support/factories';
import { approverToken, REQUEST_WALLET_RECOVERY } from '../support/approval.factories';
import type { TestGateway } from '../support/gateway';
import { eventually, randomWallet } from '../support/chain';
import { aChainMarket, aWhitelistedWallet, finalOrder, onTheWorkerChain, opsCall } from '../support/chain.factories';

/*
 * A request binds what it will do (docs/approvals.md#a-request-binds-its-effect): the token, the
 * wallets and the quantities are computed when it is requested and shown on it; approval compares
 * the world with them, refuses a difference with 409 naming what changed, and runs only what was
 * bound. Each world is changed between request and approval by the same operator that asked.
 */
jest.setTimeout(300_000);

const REQUEST_FORCED_TRANSFER = `mutation($input: ForcedTransferInput!) {
  requestForcedTransfer(input: $input) {
    id status
    effect { version forcedTransfer { chainId tokenAddress shareClassId decimals fromInvestorId fromWallet toInvestorId toWallet quantity units } walletRecovery { investorId } holdingAdjustment { investorId } }
  }
}`;
const RECOVERY_EFFECT = `query($id: ID!) { approvalRequest(id: $id) { effect { walletRecovery { investorId chainId lostWallet newWallet identity tokens { tokenAddress shareClassId units quantity } } } } }`;
const APPROVE = `mutation($id: ID!) { approveRequest(id: $id, reason: "checked") { id status result } }`;
const REMOVE_WALLET = `mutation($i: RemoveInvestorWalletInput!) { removeInvestorWallet(input: $i) { status } }`;

describe('A request binds what it will do', () => {
  const world = onTheWorkerChain();

  /** A market whose investor holds 800 tokens on chain in `wallet` (a settled order). */
  async function aHolder(gw: TestGateway) {
    const m = await aChainMarket(gw);
    const wallet = randomWallet();
    await aWhitelistedWallet(gw, m.investor.id, wallet);
    await settledOrder(gw, m, '1000');
    return { m, wallet };
  }

  async function settledOrder(gw: TestGateway, m: Awaited<ReturnType<typeof aChainMarket>>, amount: string) {
    const order = await aOneStepOrder(gw, m, { amount, stage: 'accepted', chainId: '31337' });
    expect((await opsCall(gw, `mutation($id: ID!) { settleOneStepOrder(orderId: $id) { status } }`, { id: order.id })).errors).toBeUndefined();
    expect((await finalOrder(gw, order.id)).status).toBe('settled');
  }

  /** The investor's wallet removed and another whitelisted in its place, by the operator that asked. */
  async function swapWallet(gw: TestGateway, investorId: string): Promise<string> {
    const removed = await opsCall(gw, REMOVE_WALLET, { i: { investorId, chainId: '31337', reason: 'replaced' } });
    expect(removed.errors).toBeUndefined();
    const other = randomWallet();
    await aWhitelistedWallet(gw, investorId, other);
    return other;
  }

  const forcedTransfers = (gw: TestGateway) => gw.em().fork().count(ChainTransaction, { purpose: 'forced.transfer' });
  const requestStatus = async (gw: TestGateway, id: string) =>
    (await rawRows<{ status: string }>(gw.em(), 'select status from approval_request where id = ?', [id]))[0].status;

  it('a forced transfer whose receiver swapped wallets is refused 409 naming the change, and nothing moves; asked again, it pays exactly what it shows', async () => {
    const { gw, chain } = world;
    // given a holder of 800 tokens and an heir with a whitelisted wallet
    const { m, wallet: fromWallet } = await aHolder(gw);
    const heir = await anInvestor(gw.em(), m.distributor, { grants: [m.shareClass], walletChain: null });
    const toWallet = randomWallet();
    await aWhitelistedWallet(gw, heir.id, toWallet);
    const input = {
      shareClassId: m.shareClass.id,
      chainId: '31337',
      fromInvestorId: m.investor.id,
      toInvestorId: heir.id,
      quantity: '300',
      reason: 'court order',
    };

    // when a forced transfer is requested, it shows what it will do
    const requested = await gw.graphql(REQUEST_FORCED_TRANSFER, { input }, { token: await gw.opsToken() });
    expect(requested.body.errors).toBeUndefined();
    const id = requested.body.data!.requestForcedTransfer.id as string;
    const token = m.token.contractAddress.toLowerCase();
    expect(requested.body.data!.requestForcedTransfer.effect).toEqual({
      version: 1,
      forcedTransfer: {
        chainId: '31337',
        tokenAddress: token,
        shareClassId: m.shareClass.id,
        decimals: 6,
        fromInvestorId: m.investor.id,
        fromWallet,
        toInvestorId: heir.id,
        toWallet,
        quantity: '300',
        units: '300000000',
      },
      walletRecovery: null,
      holdingAdjustment: null,
    });

    // and the operator then removes the heir's wallet and adds another
    const swapped = await swapWallet(gw, heir.id);

    // then the approval is refused, naming the change, and no token moves
    const refused = await gw.graphql(APPROVE, { id }, { token: await approverToken(gw) });
    expect(refused.body.errors?.[0]).toMatchObject({
      message: `approval request ${id} no longer does what was requested: the receiver's wallet changed from ${toWallet} to ${swapped} since the request`,
      extensions: { code: 'CONFLICT' },
    });
    expect(await requestStatus(gw, id)).toBe('requested');
    expect(await forcedTransfers(gw)).toBe(0);
    expect(await chain.balanceOf(m.token.contractAddress, fromWallet)).toBe(800_000_000n);
    expect(await chain.balanceOf(m.token.contractAddress, swapped)).toBe(0n);
    expect(await chain.balanceOf(m.token.contractAddress, toWallet)).toBe(0n);

    // when it is asked again on the world as it is, and nothing changes before the approval
    const again = await gw.graphql(REQUEST_FORCED_TRANSFER, { input }, { token: await gw.opsToken() });
    const bound = again.body.data!.requestForcedTransfer.effect.forcedTransfer;
    expect(bound).toMatchObject({ fromWallet, toWallet: swapped, units: '300000000' });
    const approved = await gw.graphql(APPROVE, { id: again.body.data!.requestForcedTransfer.id }, { token: await approverToken(gw) });
    expect(approved.body.errors).toBeUndefined();
    expect(approved.body.data!.approveRequest).toMatchObject({ status: 'executed', result: { fromWallet, toWallet: swapped, status: 'sending' } });

    // then exactly the bound quantity moves, between the bound wallets
    await eventually('the forced transfer done', async () => {
      const t = await gw.em().fork().findOneOrFail(ForcedTransfer, { approvalRequestId: again.body.data!.requestForcedTransfer.id });
      if (t.status === ForcedTransferStatus.failed) throw new Error(t.error);
      return t.status === ForcedTransferStatus.done;
    });
    expect(await chain.balanceOf(m.token.contractAddress, fromWallet)).toBe(500_000_000n);
    expect(await chain.balanceOf(m.token.contractAddress, swapped)).toBe(300_000_000n);
  });

  it("a recovery whose lost wallet was swapped for another is refused 409 naming the change; the other wallet's tokens stay where they are", async () => {
    const { gw, chain } = world;
    // given an investor holding 800 tokens, and a recovery of its wallet requested to a new address
    const { m, wallet: lost } = await aHolder(gw);
    const newAddress = randomWallet();
    const requested = await opsCall(gw, REQUEST_WALLET_RECOVERY, { input: { investorId: m.investor.id, chainId: '31337', newAddress, reason: 'key lost' } });
    expect(requested.errors).toBeUndefined();
    const id = requested.data.requestWalletRecovery.id as string;
    const shown = (await opsCall(gw, RECOVERY_EFFECT, { id })).data.approvalRequest.effect.walletRecovery;
    expect(shown).toMatchObject({
      investorId: m.investor.id,
      chainId: '31337',
      lostWallet: lost,
      newWallet: newAddress,
      tokens: [{ tokenAddress: m.token.contractAddress.toLowerCase(), shareClassId: m.shareClass.id, units: '800000000', quantity: '800' }],
    });

    // when the operator removes that wallet and adds another, which then receives tokens
    const other = await swapWallet(gw, m.investor.id);
    await settledOrder(gw, m, '500');
    expect(await chain.balanceOf(m.token.contractAddress, other)).toBe(400_000_000n);

    // then the approval is refused naming the lost wallet, and nothing moves to the new address
    const refused = await gw.graphql(APPROVE, { id }, { token: await approverToken(gw) });
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    expect(refused.body.errors?.[0]?.message).toContain(
      `approval request ${id} no longer does what was requested: the lost wallet changed from ${lost} to ${other}`,
    );
    expect(refused.body.errors?.[0]?.message).toContain(`the tokens to recover changed from 800 of ${m.token.contractAddress.toLowerCase()} to 400 of `);
    expect(await requestStatus(gw, id)).toBe('requested');
    expect(
      await gw
        .em()
        .fork()
        .count(ChainTransaction, { purpose: { $like: 'wallet.recover%' } }),
    ).toBe(0);
    expect(
      await gw
        .em()
        .fork()
        .findOneOrFail(InvestorWallet, { investor: m.investor.id, status: { $ne: WalletStatus.removed } }),
    ).toMatchObject({ address: other });
    expect(await chain.balanceOf(m.token.contractAddress, other)).toBe(400_000_000n);
    expect(await chain.balanceOf(m.token.contractAddress, newAddress)).toBe(0n);
  });

  it('a recovery whose lost wallet received more tokens since the request is refused 409 naming the tokens; unchanged, it recovers exactly what it bound', async () => {
    const { gw, chain } = world;
    // given an investor holding 800 tokens, and a recovery requested
    const { m, wallet: lost } = await aHolder(gw);
    const token = m.token.contractAddress.toLowerCase();
    const recovery = (newAddress: string) =>
      opsCall(gw, REQUEST_WALLET_RECOVERY, { input: { investorId: m.investor.id, chainId: '31337', newAddress, reason: 'key lost' } });
    const first = (await recovery(randomWallet())).data.requestWalletRecovery.id as string;

    // when the lost wallet receives 400 more before the approval
    await settledOrder(gw, m, '500');

    // then the approval is refused: the tokens it would move are not those the request showed
    const refused = await gw.graphql(APPROVE, { id: first }, { token: await approverToken(gw) });
    expect(refused.body.errors?.[0]).toMatchObject({
      message: `approval request ${first} no longer does what was requested: the tokens to recover changed from 800 of ${token} to 1200 of ${token} since the request`,
      extensions: { code: 'CONFLICT' },
    });
    expect(
      await gw
        .em()
        .fork()
        .count(ChainTransaction, { purpose: { $like: 'wallet.recover%' } }),
    ).toBe(0);
    expect(await chain.balanceOf(m.token.contractAddress, lost)).toBe(1_200_000_000n);

    // when it is rejected and asked again, and the world does not change before the approval
    await gw.graphql(`mutation($id: ID!) { rejectRequest(id: $id, reason: "ask again") { status } }`, { id: first }, { token: await approverToken(gw) });
    const newAddress = randomWallet();
    const second = (await recovery(newAddress)).data.requestWalletRecovery.id as string;
    const approved = await gw.graphql(APPROVE, { id: second }, { token: await approverToken(gw) });
    expect(approved.body.errors).toBeUndefined();
    expect(approved.body.data!.approveRequest.status).toBe('executed');

    // then the bound 1200 reach the new wallet
    await eventually('the new wallet whitelisted', async () => {
      const w = await gw
        .em()
        .fork()
        .findOneOrFail(InvestorWallet, { investor: m.investor.id, chainId: '31337', status: { $ne: WalletStatus.removed } });
      if (w.chainError) throw new Error(w.chainError);
      return w.status === WalletStatus.whitelisted;
    });
    const fresh = await gw.em().fork().findOneOrFail(InvestorWallet, { address: newAddress });
    expect(fresh.recoveryTokens).toEqual([{ tokenAddress: token, units: '1200000000' }]);
    expect(await chain.balanceOf(m.token.contractAddress, lost)).toBe(0n);
    expect(await chain.balanceOf(m.token.contractAddress, newAddress)).toBe(1_200_000_000n);
  });
});
