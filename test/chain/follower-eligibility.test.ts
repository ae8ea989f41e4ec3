import { parseEther, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ChainMovement, ChainMovementKind } from '../../src/modules/chain/chain-movement.entity';
import { TOKEN_ABI } from '../../src/modules/chain/contracts';
import { Investor } from '../../src/modules/investor/investor.entity';
import { InvestorCategory } from '../../src/modules/investor/investor-category';
import { requestedAndApproved } from '../support/approval.factories';
import { aHolding, anInvestor } from '../support/factories';
import { eventually, randomWallet } from '../support/chain';
import { aChainMarket, aWhitelistedWallet, behindTheGateway, onTheWorkerChain, opsCall, sendAs } from '../support/chain.factories';

/*
 * The follower records transfers that got through a rule (issue 46, point 4): a category is the
 * gateway's check, not the token's, so a holder may send tokens on chain to an investor the
 * class's rule set refuses; the follower records that movement with the rule it breaks, and ops
 * see it among Today's unexplained chain movements.
 */
jest.setTimeout(300_000);

const REQUEST_RULES = `mutation($input: EligibilityRulesInput!) { requestEligibilityRules(input: $input) { id } }`;

describe('A transfer on chain to a holder the rule set refuses', () => {
  const world = onTheWorkerChain();

  it('is recorded by the follower with the rule it breaks, and counted on Today', async () => {
    const { gw, chain } = world;
    const m = await aChainMarket(gw);
    // given a professional holder who holds the keys of a wallet with 10 tokens, and a retail investor's wallet
    const holder = privateKeyToAccount(generatePrivateKey());
    await chain.test.setBalance({ address: holder.address, value: parseEther('1') });
    await gw.em().nativeUpdate(Investor, { id: m.investor.id }, { category: InvestorCategory.professional });
    await aWhitelistedWallet(gw, m.investor.id, holder.address.toLowerCase());
    const retail = await anInvestor(gw.em(), m.distributor, { grants: [m.shareClass], walletChain: null, over: { category: InvestorCategory.retail } });
    const retailWallet = randomWallet();
    await aWhitelistedWallet(gw, retail.id, retailWallet);
    await aHolding(gw.em(), m.investor, m.shareClass, '10');
    await behindTheGateway(gw, world.rpcUrl, m.token.contractAddress, TOKEN_ABI, 'mint', [holder.address, parseUnits('10', 6)]);
    // and the class's rule set now admitting professionals only (a gateway check: no module on chain)
    const { requested, approved } = await requestedAndApproved(gw, REQUEST_RULES, 'requestEligibilityRules', {
      input: { code: 'PROF', reason: 'offering memorandum', allowedCategories: ['professional'] },
    });
    expect(requested.body.errors).toBeUndefined();
    expect(approved!.body.data.approveRequest.status).toBe('executed');

    // when the holder sends 1 token to the retail investor on chain, which the token lets through
    const hash = await sendAs(holder, world.rpcUrl, m.token.contractAddress, TOKEN_ABI, 'transfer', [retailWallet, parseUnits('1', 6)]);

    // then the follower records it with the rule it breaks
    const moved = await eventually('the follower recorded the transfer', () => gw.em().findOne(ChainMovement, { transactionHash: hash.toLowerCase() }));
    expect(moved).toMatchObject({
      kind: ChainMovementKind.transfer,
      fromInvestorId: m.investor.id,
      toInvestorId: retail.id,
      ineligibility: 'investor category retail is not allowed by rule set PROF',
    });
    // and ops see it on Today beside the mint no order explains
    const today = await opsCall(gw, `{ today { unexplainedMovements { shareClassId movements tokens } } }`);
    expect(today.errors).toBeUndefined();
    expect(today.data.today.unexplainedMovements).toEqual([{ shareClassId: m.shareClass.id, movements: 2, tokens: '11' }]);
  });
});
