import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ForcedTransfer, ForcedTransferStatus } from '../../src/modules/approval/forced-transfer.entity';
import { TOKEN_ABI } from '../../src/modules/chain/contracts';
import { HoldingLot } from '../../src/modules/holding/holding-lot.entity';
import { LotFreeze, LotFreezeStatus } from '../../src/modules/settlement/lot-freeze.entity';
import { ShareClass } from '../../src/modules/share-class/share-class.entity';
import { approvedCall } from '../support/approval.factories';
import { anInvestor } from '../support/factories';
import { aOneStepOrder } from '../support/one-step.factories';
import { eventually, randomWallet } from '../support/chain';
import { aChainMarket, aWhitelistedWallet, finalOrder, onTheWorkerChain, opsCall, sendAs } from '../support/chain.factories';

/*
 * Tokens still in lock-up moved by a forced transfer: T-REX `forcedTransfer` unfreezes at the
 * sender what it must and delivers them free, so the gateway freezes them again at the receiver,
 * until the lock-up of the lots they left ends.
 */
jest.setTimeout(240_000);

const REQUEST_FORCED_TRANSFER = `mutation($input: ForcedTransferInput!) { requestForcedTransfer(input: $input) { id status } }`;

describe('A forced transfer of tokens still in lock-up', () => {
  const world = onTheWorkerChain();

  it('arrives frozen at the receiver, until the lock-up of the lots they left ends: the receiver cannot send them', async () => {
    const { gw, chain, rpcUrl } = world;
    // given a share class with 30 days of lock-up, a holder of 800 tokens minted into lock-up (frozen), and an heir whose wallet key is its own
    const m = await aChainMarket(gw);
    const em = gw.em();
    const sc = await em.findOneOrFail(ShareClass, { id: m.shareClass.id });
    sc.subRedemption = { ...sc.subRedemption, lockup: 30 };
    await em.flush();
    const fromWallet = randomWallet();
    await aWhitelistedWallet(gw, m.investor.id, fromWallet);
    const heir = await anInvestor(gw.em(), m.distributor, { grants: [m.shareClass], walletChain: null });
    const heirKey = privateKeyToAccount(generatePrivateKey());
    await chain.test.setBalance({ address: heirKey.address, value: 10n ** 18n });
    const toWallet = heirKey.address.toLowerCase();
    await aWhitelistedWallet(gw, heir.id, toWallet);
    const order = await aOneStepOrder(gw, m, { amount: '1000', stage: 'accepted', chainId: '31337' });
    await opsCall(gw, `mutation($id: ID!) { settleOneStepOrder(orderId: $id) { status } }`, { id: order.id });
    expect((await finalOrder(gw, order.id)).status).toBe('settled');
    const lot = await gw.em().findOneOrFail(HoldingLot, { orderId: order.id });
    const frozenAtSender = await eventually('the lot frozen at the sender', async () => {
      const f = await gw.em().findOne(LotFreeze, { lotId: lot.id });
      return f?.status === LotFreezeStatus.frozen ? f : undefined;
    });

    // when 300 of them are moved to the heir by a forced transfer, asked and approved
    const approved = await approvedCall(gw, REQUEST_FORCED_TRANSFER, 'requestForcedTransfer', {
      input: { shareClassId: m.shareClass.id, chainId: '31337', fromInvestorId: m.investor.id, toInvestorId: heir.id, quantity: '300', reason: 'court order' },
    });
    expect(approved.errors).toBeUndefined();
    await eventually('the forced transfer done', async () => {
      const t = await gw.em().findOneOrFail(ForcedTransfer, { fromInvestorId: m.investor.id });
      if (t.status === ForcedTransferStatus.failed) throw new Error(t.error);
      return t.status === ForcedTransferStatus.done;
    });

    // then the heir's lot, dated as the lot it left, is frozen again at the heir's wallet, with the same end of lock-up
    const heirLot = await gw.em().findOneOrFail(HoldingLot, { investor: heir.id });
    expect(heirLot.settledAt.getTime()).toBe(lot.settledAt.getTime());
    const frozenAtHeir = await eventually('the received lot frozen at the heir', async () => {
      const f = await gw.em().findOne(LotFreeze, { lotId: heirLot.id });
      if (f?.status === LotFreezeStatus.failed) throw new Error(f.error);
      return f?.status === LotFreezeStatus.frozen ? f : undefined;
    });
    expect(frozenAtHeir).toMatchObject({ wallet: toWallet, units: '300000000', tokenAddress: m.token.contractAddress.toLowerCase() });
    expect(frozenAtHeir.unlocksAt.getTime()).toBe(frozenAtSender.unlocksAt.getTime());
    // On chain: the sender's frozen tokens fell by what forcedTransfer took, the heir's are all frozen, and the heir cannot send them.
    expect(await chain.read<bigint>(m.token.contractAddress, TOKEN_ABI, 'getFrozenTokens', [fromWallet])).toBe(500_000_000n);
    expect(await chain.read<bigint>(m.token.contractAddress, TOKEN_ABI, 'getFrozenTokens', [toWallet])).toBe(300_000_000n);
    expect(await chain.balanceOf(m.token.contractAddress, toWallet)).toBe(300_000_000n);
    await expect(sendAs(heirKey, rpcUrl, m.token.contractAddress, TOKEN_ABI, 'transfer', [fromWallet, 100_000_000n])).rejects.toThrow(/Insufficient Balance/);
  });
});
