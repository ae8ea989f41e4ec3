import { parseUnits, type Hex } from 'viem';
import { DomainEvent } from '../../src/events/event.entity';
import { ChainTransaction } from '../../src/modules/chain/chain-transaction.entity';
import { IDENTITY_REGISTRY_ABI } from '../../src/modules/chain/contracts';
import { DISTRIBUTION_MINT } from '../../src/modules/distribution/distribution-onchain';
import { Distribution, DistributionEntitlement } from '../../src/modules/distribution/distribution.entity';
import { Holding } from '../../src/modules/holding/holding.entity';
import { InvestorWallet } from '../../src/modules/investor/investor.entity';
import { eventually, hex } from '../support/chain';
import { aChainMarket, behindTheGateway, fourWhitelistedInvestors, onTheWorkerChain, opsCall } from '../support/chain.factories';
import { aDeclaredReinvestment, holdersSinceOctober, mintsSince, PAY, RETRY } from '../support/income.factories';

/*
 * A reinvestment row that failed alone (its wallet's identity deleted from the token's registry
 * behind the gateway's back: T-REX's batchMint refuses an unverified receiver) is owed still.
 * Once ops fix the cause, `retryDistributionPayments` sends the failed rows again through the
 * same exactly-once intents, and the holder is paid once.
 */
jest.setTimeout(300_000);

describe('Paying the failed rows of a reinvestment again', () => {
  const world = onTheWorkerChain();

  it('a row that failed alone is sent again once its wallet is verified again: the holder is minted once, the distribution ends paid, and a second retry sends nothing', async () => {
    const { gw, chain, rpcUrl } = world;
    // given four holders of 1,000 tokens, one of whose wallets loses its identity on chain after it was whitelisted
    const m = await aChainMarket(gw);
    const { investors, wallets } = await fourWhitelistedInvestors(gw, m);
    await holdersSinceOctober(gw, rpcUrl, m, wallets, '1000');
    const doomed = investors[2];
    const doomedWallet = await gw.em().findOneOrFail(InvestorWallet, { investor: doomed.id, chainId: '31337' });
    await behindTheGateway(gw, rpcUrl, m.token.identityRegistry, IDENTITY_REGISTRY_ABI, 'deleteIdentity', [hex(doomedWallet.address)]);
    const id = await aDeclaredReinvestment(gw, m, '0.02');
    const fromBlock = (await chain.pub.getBlockNumber()) + 1n;

    // a retry before payment is refused: paying is payDistribution's
    const early = await opsCall(gw, RETRY, { id });
    expect(early.errors?.[0].extensions?.code).toBe('CONFLICT');

    // when the distribution is paid, the batch reverts, splits, and the doomed row fails alone
    expect((await opsCall(gw, PAY, { id })).data.payDistribution.status).toBe('paying');
    const failed = await eventually(
      'the distribution final with one row failed',
      async () => {
        const d = await gw.em().findOneOrFail(Distribution, { id });
        return d.status === 'paid' ? d : undefined;
      },
      120_000,
    );
    const rows = await gw.em().find(DistributionEntitlement, { distributionId: id });
    expect(rows.filter((r) => r.status === 'failed').map((r) => [r.investorId, r.failureReason])).toEqual([[doomed.id, 'Identity is not verified.']]);
    // 20 per holder at a NAV of 2: 10 tokens each; the failed row's are owed still, outside the paid total
    expect(failed).toMatchObject({ tokens: '30', paid: '60', residue: '0' });

    // and ops, once the wallet's identity is registered again, pay the failed rows again, twice in a row
    await behindTheGateway(gw, rpcUrl, m.token.identityRegistry, IDENTITY_REGISTRY_ABI, 'registerIdentity', [
      hex(doomedWallet.address),
      hex(doomedWallet.onchainIdentity),
      0,
    ]);
    const intentsBefore = await gw.em().count(ChainTransaction, { purpose: DISTRIBUTION_MINT });
    const retried = await opsCall(gw, RETRY, { id });
    expect(retried.errors).toBeUndefined();
    expect(retried.data.retryDistributionPayments).toMatchObject({ status: 'paying', tokens: '40', paid: '80' });
    const again = await opsCall(gw, RETRY, { id });
    expect(again.errors).toBeUndefined();
    expect(await gw.em().count(ChainTransaction, { purpose: DISTRIBUTION_MINT })).toBe(intentsBefore + 1);

    // then the holder is paid once, the distribution ends paid, the chain equals the register
    const done = await eventually(
      'the distribution paid again',
      async () => {
        const d = await gw.em().findOneOrFail(Distribution, { id });
        return d.status === 'paid' ? d : undefined;
      },
      120_000,
    );
    expect(done).toMatchObject({ tokens: '40', paid: '80', residue: '0' });
    const final = await gw.em().find(DistributionEntitlement, { distributionId: id });
    expect(final.map((r) => r.status)).toEqual(['paid', 'paid', 'paid', 'paid']);
    const mints = await mintsSince(chain, m.token.contractAddress, fromBlock);
    for (const inv of investors) {
      const wallet = wallets.get(inv.id)!.toLowerCase();
      expect(mints.get(wallet)).toEqual({ count: 1, value: parseUnits('10', 6) });
      const held = (await gw.em().findOneOrFail(Holding, { investor: inv.id, shareClass: m.shareClass.id })).balance;
      expect(Number(held)).toBe(1010);
      expect(await chain.balanceOf(m.token.contractAddress, wallet as Hex)).toBe(parseUnits('1010', 6));
    }
    const paidEvents = await gw.em().find(DomainEvent, { type: 'distribution.paid', aggregateId: id });
    expect(paidEvents.map((e) => e.payload.investorId).sort()).toEqual(investors.map((i) => i.id).sort());
    const doomedRow = final.find((r) => r.investorId === doomed.id)!;
    expect(doomedRow.failureReason).toBeNull();
    expect(paidEvents.find((e) => e.payload.investorId === doomed.id)!.payload.transferHash).toBe(doomedRow.transferHash);

    // a retry with nothing failed sends nothing
    expect((await opsCall(gw, RETRY, { id })).data.retryDistributionPayments.status).toBe('paid');
    expect(await gw.em().count(ChainTransaction, { purpose: DISTRIBUTION_MINT })).toBe(intentsBefore + 1);
  });
});
