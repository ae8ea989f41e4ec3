import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ChainTransaction, ChainTxStatus } from '../../src/modules/chain/chain-transaction.entity';
import { TOKEN_ABI } from '../../src/modules/chain/contracts';
import { LotFreeze, LotFreezeStatus } from '../../src/modules/settlement/lot-freeze.entity';
import { HoldingLot } from '../../src/modules/holding/holding-lot.entity';
import { ShareClass } from '../../src/modules/share-class/share-class.entity';
import { aOneStepOrder } from '../support/one-step.factories';
import { anInvestor } from '../support/factories';
import { eventually, randomWallet } from '../support/chain';
import { aChainMarket, aReleasedLot, aWhitelistedWallet, finalOrder, onTheWorkerChain, opsCall, sendAs } from '../support/chain.factories';

/*
 * Lock-up held by the token: tokens minted into lock-up are frozen on chain for their holder, so
 * the holder's own wallet cannot send them; once the lot leaves lock-up the release job unfreezes
 * them, once.
 */
jest.setTimeout(240_000);

const DAY = 86_400_000;

describe('Lock-up held by the token', () => {
  const world = onTheWorkerChain();
  let afterRelease: (() => void) | null = null;
  afterEach(() => {
    afterRelease?.();
    afterRelease = null;
  });

  it('freezes minted tokens in lock-up, the holder cannot send them; after lock-up the job releases them once and the transfer goes through', async () => {
    const { gw, chain, rpcUrl } = world;
    // given a share class with 30 days of lock-up, an investor whose wallet key is its own, and another whitelisted holder
    const m = await aChainMarket(gw);
    const em = gw.em();
    const sc = await em.findOneOrFail(ShareClass, { id: m.shareClass.id });
    sc.subRedemption = { ...sc.subRedemption, lockup: 30 };
    await em.flush();
    const holder = privateKeyToAccount(generatePrivateKey());
    await chain.test.setBalance({ address: holder.address, value: 10n ** 18n });
    const holderWallet = holder.address.toLowerCase();
    await aWhitelistedWallet(gw, m.investor.id, holderWallet);
    const other = await anInvestor(gw.em(), m.distributor, { grants: [m.shareClass], walletChain: null });
    const receiver = randomWallet();
    await aWhitelistedWallet(gw, other.id, receiver);

    // when the investor's subscription is minted (1000 at 1.25: 800 tokens)
    const order = await aOneStepOrder(gw, m, { amount: '1000', stage: 'accepted', chainId: '31337' });
    await opsCall(gw, `mutation($id: ID!) { settleOneStepOrder(orderId: $id) { status } }`, { id: order.id });
    expect((await finalOrder(gw, order.id)).status).toBe('settled');

    // then its lot is frozen on chain, in the transaction that settled it, and the wallet cannot send it
    const lot = await gw.em().findOneOrFail(HoldingLot, { orderId: order.id });
    const frozen = await eventually('the lot frozen on chain', async () => {
      const f = await gw.em().findOne(LotFreeze, { lotId: lot.id });
      if (f?.status === LotFreezeStatus.failed) throw new Error(f.error);
      return f?.status === LotFreezeStatus.frozen ? f : undefined;
    });
    expect(frozen).toMatchObject({ wallet: holderWallet, units: '800000000', tokenAddress: m.token.contractAddress.toLowerCase() });
    expect(frozen.unlocksAt.getTime()).toBeGreaterThan(lot.settledAt.getTime() + 29 * DAY);
    expect(await chain.read<bigint>(m.token.contractAddress, TOKEN_ABI, 'getFrozenTokens', [holderWallet])).toBe(800_000_000n);
    await expect(sendAs(holder, rpcUrl, m.token.contractAddress, TOKEN_ABI, 'transfer', [receiver, 100_000_000n])).rejects.toThrow(/Insufficient Balance/);
    // Before the lock-up ends the job releases nothing.
    expect(await gw.gateway.services.lockUpOnChain!.releaseDue(gw.db.orm)).toBe(0);

    // when the lock-up has ended and the job runs (twice at once: one release)
    gw.clock.advance(31 * DAY);
    // The clock goes back for the next test whatever happens here (reset does not move it).
    afterRelease = () => gw.clock.advance(-31 * DAY);
    const runs = await Promise.all([gw.gateway.services.lockUpOnChain!.releaseDue(gw.db.orm), gw.gateway.services.lockUpOnChain!.releaseDue(gw.db.orm)]);
    expect(runs.sort()).toEqual([0, 1]);
    const released = await aReleasedLot(gw, lot.id);
    expect(released.releasedUnits).toBe('800000000');
    const intents = await gw.em().find(ChainTransaction, { purpose: { $in: ['lockup.freeze', 'lockup.unfreeze'] } }, { orderBy: { id: 'asc' } });
    expect(intents.map((t) => [t.purpose, t.status])).toEqual([
      ['lockup.freeze', ChainTxStatus.confirmed],
      ['lockup.unfreeze', ChainTxStatus.confirmed],
    ]);
    expect(await chain.read<bigint>(m.token.contractAddress, TOKEN_ABI, 'getFrozenTokens', [holderWallet])).toBe(0n);
    expect(await gw.gateway.services.lockUpOnChain!.releaseDue(gw.db.orm)).toBe(0);

    // then the holder's own transfer goes through
    await sendAs(holder, rpcUrl, m.token.contractAddress, TOKEN_ABI, 'transfer', [receiver, 100_000_000n]);
    expect(await chain.balanceOf(m.token.contractAddress, receiver)).toBe(100_000_000n);
    expect(await chain.balanceOf(m.token.contractAddress, holderWallet)).toBe(700_000_000n);
  });

  it('a share class without lock-up freezes nothing', async () => {
    const { gw, chain } = world;
    const m = await aChainMarket(gw);
    const wallet = randomWallet();
    await aWhitelistedWallet(gw, m.investor.id, wallet);
    const order = await aOneStepOrder(gw, m, { amount: '1000', stage: 'accepted', chainId: '31337' });
    await opsCall(gw, `mutation($id: ID!) { settleOneStepOrder(orderId: $id) { status } }`, { id: order.id });
    expect((await finalOrder(gw, order.id)).status).toBe('settled');
    expect(await gw.em().count(LotFreeze, {})).toBe(0);
    expect(await gw.em().count(ChainTransaction, { purpose: { $like: 'lockup.%' } })).toBe(0);
    expect(await chain.read<bigint>(m.token.contractAddress, TOKEN_ABI, 'getFrozenTokens', [wallet])).toBe(0n);
  });
});
