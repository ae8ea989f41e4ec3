import { ChainTransaction } from '../../src/modules/chain/chain-transaction.entity';
import { IDENTITY_REGISTRY_ABI } from '../../src/modules/chain/contracts';
import { InvestorWallet } from '../../src/modules/investor/investor.entity';
import { anInvestor } from '../support/factories';
import { eventually, randomWallet } from '../support/chain';
import { aChainMarket, aWhitelistedWallet, behindTheGateway, onTheWorkerChain } from '../support/chain.factories';

/*
 * The identity registered for a wallet carries the investor's country (issue 46, point 4).
 * Wallets registered before the gateway carried countries have 0 in the registry: the backfill
 * corrects each one whose country on chain differs from its investor's, exactly once.
 */
jest.setTimeout(300_000);

const LU = 442;

describe('The country of wallets registered before countries were carried', () => {
  const world = onTheWorkerChain();

  it('is backfilled: an updateCountry intent per wallet whose registry country differs, once; a wallet already right is only recorded', async () => {
    const { gw } = world;
    const m = await aChainMarket(gw);
    const registry = m.token.identityRegistry;
    const country = (wallet: string) => world.chain.read<number>(registry, IDENTITY_REGISTRY_ABI, 'investorCountry', [wallet]);
    const old = randomWallet();
    const right = randomWallet();
    const oldWallet = await aWhitelistedWallet(gw, m.investor.id, old);
    const other = await anInvestor(gw.em(), m.distributor, { grants: [m.shareClass], walletChain: null });
    const rightWallet = await aWhitelistedWallet(gw, other.id, right);
    expect(oldWallet.registeredCountry).toBe(LU);
    expect(await country(old)).toBe(LU);

    // given two wallets as registered before countries were carried: the gateway knows neither country, one reads 0 on chain
    await behindTheGateway(gw, world.rpcUrl, registry, IDENTITY_REGISTRY_ABI, 'updateCountry', [old, 0]);
    await gw.em().nativeUpdate(InvestorWallet, { id: { $in: [oldWallet.id, rightWallet.id] } }, { registeredCountry: null });

    // when the backfill runs, twice at once and once more
    const runs = await Promise.all([
      gw.gateway.services.walletOnChain!.countries.backfill(gw.db.orm),
      gw.gateway.services.walletOnChain!.countries.backfill(gw.db.orm),
    ]);
    expect(runs[0] + runs[1]).toBe(1);
    expect(await gw.gateway.services.walletOnChain!.countries.backfill(gw.db.orm)).toBe(0);

    // then one intent corrected the one that differed
    const intents = await gw.em().find(ChainTransaction, { purpose: 'wallet.country' });
    expect(intents.map((t) => t.walletId)).toEqual([oldWallet.id]);
    await eventually('the country corrected on chain', async () => (await country(old)) === LU);
    expect(await country(right)).toBe(LU);
    const after = await gw.em().find(InvestorWallet, { id: { $in: [oldWallet.id, rightWallet.id] } });
    expect(after.map((w) => w.registeredCountry)).toEqual([LU, LU]);
    expect(after.map((w) => w.chainError ?? null)).toEqual([null, null]);
  });
});
