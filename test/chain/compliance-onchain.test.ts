import { getAddress, parseUnits, zeroAddress, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ChainIntentSequence, IntentSequenceStatus } from '../../src/modules/chain/compliance-module.entity';
import { IDENTITY_REGISTRY_ABI, MODULAR_COMPLIANCE_ABI, T_REX, TOKEN_ABI } from '../../src/modules/chain/contracts';
import { requestedAndApproved } from '../support/approval.factories';
import { aHolding, anInvestor } from '../support/factories';
import { Investor } from '../../src/modules/investor/investor.entity';
import { InvestorCategory } from '../../src/modules/investor/investor-category';
import { eventually, randomWallet } from '../support/chain';
import { aChainMarket, aWhitelistedWallet, behindTheGateway, onTheWorkerChain, opsCall, sendAs } from '../support/chain.factories';

/*
 * Compliance where the token is (issue 46, point 4): a token deployed for a class with a rule set
 * is born with the T-REX modules the rules need, a rule change reaches them through intents, and
 * a mint or a holder's own transfer that breaks a rule reverts on chain, whoever sends it.
 */
jest.setTimeout(300_000);

const REQUEST_RULES = `mutation($input: EligibilityRulesInput!) { requestEligibilityRules(input: $input) { id effect { eligibilityRules { ineligibleHolders } } } }`;
const US = 840;
const IR = 364;

describe('Compliance modules on chain', () => {
  const world = onTheWorkerChain();
  const agent = () => world.gw.gateway.services.chain!.writable('31337').account!;

  /** The rule set PROF, requested and approved; then every compliance sequence it started, done. */
  async function rules(input: Record<string, unknown>) {
    const { requested, approved } = await requestedAndApproved(world.gw, REQUEST_RULES, 'requestEligibilityRules', {
      input: { code: 'PROF', reason: 'offering memorandum', ...input },
    });
    expect(requested.body.errors).toBeUndefined();
    expect(approved!.body.data.approveRequest.status).toBe('executed');
    await eventually('the compliance modules updated on chain', async () => {
      const sequences = await world.gw.em().find(ChainIntentSequence, {});
      const failed = sequences.find((s) => s.status === IntentSequenceStatus.failed);
      if (failed) throw new Error(failed.error);
      return sequences.every((s) => s.status === IntentSequenceStatus.done);
    });
    return requested.body.data.requestEligibilityRules.effect.eligibilityRules.ineligibleHolders as string[];
  }

  const read = <T>(to: string, abi: unknown, fn: string, args: unknown[] = []) => world.chain.read<T>(to, abi, fn, args);
  const complianceOf = (token: string) => read<Hex>(token, TOKEN_ABI, 'compliance');
  /** The names of the modules bound to the token's compliance, sorted. */
  async function modulesOf(token: string): Promise<string[]> {
    const modules = await read<Hex[]>(await complianceOf(token), MODULAR_COMPLIANCE_ABI, 'getModules');
    return (await Promise.all(modules.map((m) => read<string>(m, T_REX.SupplyLimitModule.abi, 'name')))).sort();
  }
  /** A mint by the agent key itself, behind the gateway: its simulation, which must revert with `reason`. */
  async function mintReverts(token: string, to: string, tokens: string, reason: RegExp) {
    const call = world.chain.pub.simulateContract({
      account: agent(),
      address: token as Hex,
      abi: TOKEN_ABI,
      functionName: 'mint',
      args: [to as Hex, parseUnits(tokens, 6)],
    });
    await expect(call).rejects.toThrow(reason);
  }

  it('a token is born with the modules its rule set needs; a maximum holding and a supply cap are refused at placement and revert on chain', async () => {
    const { gw } = world;
    const m = await aChainMarket(gw);
    expect(await modulesOf(m.token.contractAddress)).toEqual([]);
    await rules({ blockedCountries: ['US'], allowedCategories: ['professional', 'retail'], maxHoldingPerInvestor: '100', supplyCap: '150' });

    // A token deployed for the class now is born with them (categories stay the gateway's check).
    const second = await opsCall(
      gw,
      `mutation($sc: ID!) { deployToken(input: { shareClassId: $sc, chainId: "31337", name: "Chain Fund B", symbol: "CFB", decimals: 6 }) { contractAddress } }`,
      { sc: m.shareClass.id },
    );
    expect(second.errors).toBeUndefined();
    const born = second.data.deployToken.contractAddress as string;
    expect(await modulesOf(born)).toEqual(['CountryRestrictModule', 'MaxBalanceModule', 'SupplyLimitModule']);
    const modules = await read<Hex[]>(await complianceOf(born), MODULAR_COMPLIANCE_ABI, 'getModules');
    const supplyModule = modules[2];
    expect(await read<bigint>(supplyModule, T_REX.SupplyLimitModule.abi, 'getSupplyLimit', [await complianceOf(born)])).toBe(parseUnits('150', 6));

    // The class's existing token got them through the rule change's intents.
    const token = m.token.contractAddress;
    expect(await modulesOf(token)).toEqual(['CountryRestrictModule', 'MaxBalanceModule', 'SupplyLimitModule']);

    // Refused at placement (NAV 1.25: 200 buys 160 tokens).
    await gw.em().nativeUpdate(Investor, { id: m.investor.id }, { category: InvestorCategory.professional });
    const placed = await gw.api('POST', '/orders/subscribe', {
      host: 'dist-a.test',
      body: { distributorId: m.distributor.id, investorId: m.investor.id, shareClassId: m.shareClass.id, amount: 200 },
    });
    expect(placed.status).toBe(409);
    expect(placed.body.errorMsg).toMatch(/a holding of 160 tokens would exceed the maximum of 100 per investor \(rule set PROF\)$/);

    // And on chain, sent by the agent key directly: the compliance refuses.
    const a = randomWallet();
    const b = randomWallet();
    await aWhitelistedWallet(gw, m.investor.id, a);
    await aWhitelistedWallet(gw, (await anInvestor(gw.em(), m.distributor, { grants: [m.shareClass], walletChain: null })).id, b);
    await mintReverts(token, a, '101', /Compliance not followed/);
    await behindTheGateway(gw, world.rpcUrl, token, TOKEN_ABI, 'mint', [a, parseUnits('100', 6)]);
    await mintReverts(token, a, '1', /Compliance not followed/);
    expect(await read<boolean>(await complianceOf(token), MODULAR_COMPLIANCE_ABI, 'canTransfer', [zeroAddress, b, parseUnits('60', 6)])).toBe(false);
    await mintReverts(token, b, '60', /Compliance not followed/);
    await behindTheGateway(gw, world.rpcUrl, token, TOKEN_ABI, 'mint', [b, parseUnits('50', 6)]);
    expect(await world.chain.balanceOf(token, b)).toBe(parseUnits('50', 6));
  });

  it("a holder's transfer on chain to a wallet registered in a blocked country reverts; to one elsewhere it goes", async () => {
    const { gw, chain } = world;
    const m = await aChainMarket(gw);
    const holder = privateKeyToAccount(generatePrivateKey());
    await chain.test.setBalance({ address: holder.address, value: 10n ** 18n });
    await aWhitelistedWallet(gw, m.investor.id, holder.address);
    const american = await anInvestor(gw.em(), m.distributor, { grants: [m.shareClass], walletChain: null, over: { countryCode: 'US' } });
    const luxembourger = await anInvestor(gw.em(), m.distributor, { grants: [m.shareClass], walletChain: null });
    const toUs = randomWallet();
    const toLu = randomWallet();
    await aWhitelistedWallet(gw, american.id, toUs);
    await aWhitelistedWallet(gw, luxembourger.id, toLu);
    expect(await read<number>(m.token.identityRegistry, IDENTITY_REGISTRY_ABI, 'investorCountry', [toUs])).toBe(US);
    const token = m.token.contractAddress;
    await behindTheGateway(gw, world.rpcUrl, token, TOKEN_ABI, 'mint', [holder.address, parseUnits('10', 6)]);

    await rules({ blockedCountries: ['US'] });
    expect(await modulesOf(token)).toEqual(['CountryRestrictModule']);
    const compliance = await complianceOf(token);
    expect(await read<boolean>(compliance, MODULAR_COMPLIANCE_ABI, 'canTransfer', [holder.address, toUs, parseUnits('1', 6)])).toBe(false);
    await expect(sendAs(holder, world.rpcUrl, token, TOKEN_ABI, 'transfer', [toUs, parseUnits('1', 6)])).rejects.toThrow(/Transfer not possible/);
    await sendAs(holder, world.rpcUrl, token, TOKEN_ABI, 'transfer', [toLu, parseUnits('1', 6)]);
    expect(await chain.balanceOf(token, toLu)).toBe(parseUnits('1', 6));
    expect(await chain.balanceOf(token, toUs)).toBe(0n);
  });

  it('a rule change lists the holders it makes ineligible and updates the modules on chain: a new maximum told what each identity holds, a dropped cap unbound', async () => {
    const { gw } = world;
    const m = await aChainMarket(gw);
    const token = m.token.contractAddress;
    const big = await anInvestor(gw.em(), m.distributor, { grants: [m.shareClass], walletChain: null });
    const bigWallet = randomWallet();
    await aWhitelistedWallet(gw, big.id, bigWallet);
    await behindTheGateway(gw, world.rpcUrl, token, TOKEN_ABI, 'mint', [bigWallet, parseUnits('500', 6)]);
    await aHolding(gw.em(), big, m.shareClass, '500');
    await aHolding(gw.em(), m.investor, m.shareClass, '5');
    await gw.em().nativeUpdate(Investor, { id: m.investor.id }, { countryCode: 'IR' });

    await rules({ blockedCountries: ['US'], supplyCap: '1000' });
    expect(await modulesOf(token)).toEqual(['CountryRestrictModule', 'SupplyLimitModule']);
    const compliance = await complianceOf(token);
    const modules = await read<Hex[]>(compliance, MODULAR_COMPLIANCE_ABI, 'getModules');
    const restrict = modules[0];
    expect(await read<boolean>(restrict, T_REX.CountryRestrictModule.abi, 'isCountryRestricted', [compliance, US])).toBe(true);

    expect(await rules({ blockedCountries: ['IR'], maxHoldingPerInvestor: '600' })).toEqual([
      `${m.investor.id} (${m.shareClass.id}): country IR is blocked by rule set PROF`,
    ]);
    expect(await modulesOf(token)).toEqual(['CountryRestrictModule', 'MaxBalanceModule']);
    expect(await read<boolean>(restrict, T_REX.CountryRestrictModule.abi, 'isCountryRestricted', [compliance, US])).toBe(false);
    expect(await read<boolean>(restrict, T_REX.CountryRestrictModule.abi, 'isCountryRestricted', [compliance, IR])).toBe(true);
    // The new maximum counts what the holder's identity already held.
    const identity = await read<Hex>(m.token.identityRegistry, IDENTITY_REGISTRY_ABI, 'identity', [bigWallet]);
    const maxModule = (await read<Hex[]>(compliance, MODULAR_COMPLIANCE_ABI, 'getModules')).find((a) => getAddress(a) !== getAddress(restrict))!;
    expect(await read<bigint>(maxModule, T_REX.MaxBalanceModule.abi, 'getIDBalance', [compliance, identity])).toBe(parseUnits('500', 6));
    await mintReverts(token, bigWallet, '101', /Compliance not followed/);
    await behindTheGateway(gw, world.rpcUrl, token, TOKEN_ABI, 'mint', [bigWallet, parseUnits('100', 6)]);
  });
});
