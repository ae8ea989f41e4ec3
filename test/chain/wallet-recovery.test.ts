import { ChainMovement } from '../../src/modules/chain/chain-movement.entity';
import { ChainTransaction, ChainTxStatus } from '../../src/modules/chain/chain-transaction.entity';
import { IDENTITY_REGISTRY_ABI, TOKEN_ABI } from '../../src/modules/chain/contracts';
import { DomainEvent } from '../../src/events/event.entity';
import { Holding } from '../../src/modules/holding/holding.entity';
import { HoldingLot } from '../../src/modules/holding/holding-lot.entity';
import { InvestorWallet, WalletStatus } from '../../src/modules/investor/investor.entity';
import { aOneStepOrder } from '../support/one-step.factories';
import { approvedCall, REQUEST_WALLET_RECOVERY } from '../support/approval.factories';
import type { TestGateway } from '../support/gateway';
import { eventually, randomWallet } from '../support/chain';
import { aChainMarket, aWhitelistedWallet, behindTheGateway, finalOrder, onTheWorkerChain, opsCall } from '../support/chain.factories';

/*
 * An investor lost the key of its wallet, which ops froze: ops recover its tokens to its new
 * wallet with T-REX's recoveryAddress, through the gateway's intents, on the worker's anvil.
 */
jest.setTimeout(240_000);

/** A recovery is requested by one ops principal and approved by another (test/support/approval.factories.ts). */
const recover = (gw: TestGateway, vars: { i: string; a: string }) =>
  approvedCall(gw, REQUEST_WALLET_RECOVERY, 'requestWalletRecovery', {
    input: { investorId: vars.i, chainId: '31337', newAddress: vars.a, reason: 'key lost' },
  });

describe('Recovering a lost wallet on chain', () => {
  const world = onTheWorkerChain();

  it("moves the lost wallet's tokens to the new wallet (registered, unfrozen, the lost one out of the registry); the register keeps the holding and its lots' dates", async () => {
    const { gw, chain, rpcUrl } = world;
    // given an investor holding 800 tokens in a wallet, frozen since its key was lost
    const m = await aChainMarket(gw);
    const lostAddress = randomWallet();
    const lost = await aWhitelistedWallet(gw, m.investor.id, lostAddress);
    const order = await aOneStepOrder(gw, m, { amount: '1000', stage: 'accepted', chainId: '31337' });
    await opsCall(gw, `mutation($id: ID!) { settleOneStepOrder(orderId: $id) { status } }`, { id: order.id });
    expect((await finalOrder(gw, order.id)).status).toBe('settled');
    await behindTheGateway(gw, rpcUrl, m.token.contractAddress, TOKEN_ABI, 'setAddressFrozen', [lostAddress, true]);
    const lotsBefore = (await gw.em().find(HoldingLot, { investor: m.investor.id })).map((l) => [l.quantity, l.remaining, l.settledAt.getTime()]);
    const changedBefore = await gw.em().count(DomainEvent, { type: 'holding.changed' });

    // when ops recover it to a new wallet
    const newAddress = randomWallet();
    const res = await recover(gw, { i: m.investor.id, a: newAddress });
    expect(res.errors).toBeUndefined();
    expect(res.result).toMatchObject({ address: newAddress, status: 'pending' });
    expect(await gw.em().findOneOrFail(InvestorWallet, { id: res.result.walletId })).toMatchObject({ address: newAddress, recoveredFrom: String(lost.id) });
    expect(await gw.em().findOneOrFail(InvestorWallet, { id: lost.id })).toMatchObject({
      status: WalletStatus.removed,
      removalReason: `lost: recovered to ${newAddress} (key lost)`,
    });

    // then, once confirmed, the new wallet is whitelisted and holds the tokens on chain
    const fresh = await eventually('the new wallet whitelisted', async () => {
      const w = await gw.em().findOneOrFail(InvestorWallet, { investor: m.investor.id, chainId: '31337', status: { $ne: WalletStatus.removed } });
      if (w.chainError) throw new Error(w.chainError);
      return w.status === WalletStatus.whitelisted ? w : undefined;
    });
    expect(fresh.address).toBe(newAddress);
    const steps = await gw.em().find(ChainTransaction, { walletId: fresh.id }, { orderBy: { id: 'asc' } });
    expect(steps.map((t) => [t.purpose, t.status])).toEqual([
      ['wallet.recoveryKey', ChainTxStatus.confirmed],
      ['wallet.recover', ChainTxStatus.confirmed],
      ['wallet.unfreeze', ChainTxStatus.confirmed],
    ]);
    expect(await chain.balanceOf(m.token.contractAddress, lostAddress)).toBe(0n);
    expect(await chain.balanceOf(m.token.contractAddress, newAddress)).toBe(800_000_000n);
    expect(await chain.read<boolean>(m.token.contractAddress, TOKEN_ABI, 'isFrozen', [newAddress])).toBe(false);
    expect(await chain.read<boolean>(m.token.identityRegistry, IDENTITY_REGISTRY_ABI, 'isVerified', [newAddress])).toBe(true);
    expect(await chain.read<boolean>(m.token.identityRegistry, IDENTITY_REGISTRY_ABI, 'contains', [lostAddress])).toBe(false);

    // The register: the same holding and lots, no movement, once the follower has read past the recovery.
    const recovery = steps[1];
    await eventually('the follower past the recovery', async () => {
      const [cursor] = await gw
        .em()
        .getConnection()
        .execute<{ block_number: string }[]>(`select block_number::text from chain_follow_cursor where chain_id = '31337'`);
      return cursor && BigInt(cursor.block_number) >= BigInt(recovery.blockNumber!);
    });
    expect(Number((await gw.em().findOneOrFail(Holding, { investor: m.investor.id, shareClass: m.shareClass.id })).balance)).toBe(800);
    expect((await gw.em().find(HoldingLot, { investor: m.investor.id })).map((l) => [l.quantity, l.remaining, l.settledAt.getTime()])).toEqual(lotsBefore);
    expect(await gw.em().count(DomainEvent, { type: 'holding.changed' })).toBe(changedBefore);
    expect(await gw.em().count(ChainMovement, {})).toBe(0);

    // The new wallet is the investor's: the next subscription is minted to it.
    const next = await aOneStepOrder(gw, m, { amount: '500', stage: 'accepted', chainId: '31337' });
    expect(next.deliveryWallet).toBe(newAddress);
    await opsCall(gw, `mutation($id: ID!) { settleOneStepOrder(orderId: $id) { status } }`, { id: next.id });
    expect((await finalOrder(gw, next.id)).status).toBe('settled');
    expect(await chain.balanceOf(m.token.contractAddress, newAddress)).toBe(1_200_000_000n);
  });
});
