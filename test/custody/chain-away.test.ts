import { ChainTransaction } from '../../src/modules/chain/chain-transaction.entity';
import { InvestorWallet, WalletStatus } from '../../src/modules/investor/investor.entity';
import { Order } from '../../src/modules/order/order.entity';
import { chainClients, randomWallet, testChains, workerChain } from '../support/chain';
import { aChainMarket, aWhitelistedWallet, finalOrder, opsCall } from '../support/chain.factories';
import { approverToken, REQUEST_WALLET_RECOVERY } from '../support/approval.factories';
import { anInvestor } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aDealingDateNav, aOneStepOrder, aTransferHash } from '../support/one-step.factories';
import { RpcProxy } from '../support/rpc-proxy';

/*
 * A chain that is away (its node drops every call, behind a proxy) is a 503 — SERVICE_UNAVAILABLE
 * with retryAfter — on every operation that needs it, and nothing is half-done: no order moved,
 * no wallet removed, no intent written.
 */
jest.setTimeout(600_000);

const CHAIN = '31337';

describe('A chain that is away is a 503, never a 500, and nothing is half-done', () => {
  let gw: TestGateway;
  let proxy: RpcProxy;
  beforeAll(async () => {
    proxy = await RpcProxy.start((await workerChain()).rpcUrl);
    gw = await startTestGateway({ chains: await testChains({ rpcUrls: [proxy.url] }) });
  });
  afterAll(async () => {
    await gw.close();
    await proxy.close();
  });

  it('an approved wallet recovery, reconciliation, settleOneStepOrder (with and without hash), settleDealingDate and whitelisting', async () => {
    // given an investor holding 800 tokens on chain, an accepted order, and another investor's wallet pending
    const m = await aChainMarket(gw);
    const wallet = randomWallet();
    await aWhitelistedWallet(gw, m.investor.id, wallet);
    const minted = await aOneStepOrder(gw, m, { amount: '1000', stage: 'accepted', chainId: CHAIN });
    await aDealingDateNav(gw, minted);
    expect((await opsCall(gw, `mutation($id: ID!) { settleOneStepOrder(orderId: $id) { status } }`, { id: minted.id })).errors).toBeUndefined();
    expect((await finalOrder(gw, minted.id)).status).toBe('settled');
    const accepted = await aOneStepOrder(gw, m, { amount: '100', stage: 'accepted', chainId: CHAIN });
    const other = await anInvestor(gw.em(), m.distributor, { grants: [m.shareClass], walletChain: null });
    const added = await opsCall(gw, `mutation($i: AddInvestorWalletInput!) { addInvestorWallet(input: $i) { status } }`, {
      i: { investorId: other.id, chainId: CHAIN, address: randomWallet() },
    });
    expect(added.data.addInvestorWallet.status).toBe('pending');
    const intents = await gw.em().fork().count(ChainTransaction, {});

    // and a wallet recovery requested by one ops principal, for a second one to approve
    const recovery = await opsCall(gw, REQUEST_WALLET_RECOVERY, {
      input: { investorId: m.investor.id, chainId: CHAIN, newAddress: randomWallet(), reason: 'key lost' },
    });
    const approver = await approverToken(gw);

    // when the chain's node stops answering
    proxy.decide = () => 'down';
    const OPERATIONS: [string, string, Record<string, unknown>, string?][] = [
      [
        'the approval of a wallet recovery',
        `mutation($id: ID!) { approveRequest(id: $id, reason: "checked") { status } }`,
        { id: recovery.data.requestWalletRecovery.id },
        approver,
      ],
      ['reconciliation', `query($sc: ID!) { reconciliation(shareClassId: $sc) { blockNumber } }`, { sc: m.shareClass.id }],
      ['settleOneStepOrder', `mutation($id: ID!) { settleOneStepOrder(orderId: $id) { status } }`, { id: accepted.id }],
      [
        'settleOneStepOrder with a hash',
        `mutation($id: ID!, $h: String) { settleOneStepOrder(orderId: $id, transferHash: $h) { status } }`,
        { id: accepted.id, h: aTransferHash() },
      ],
      [
        'settleDealingDate',
        `mutation($sc: ID!, $d: String!) { settleDealingDate(shareClassId: $sc, dealingDate: $d) { dealingDate } }`,
        { sc: m.shareClass.id, d: accepted.dealingDate },
      ],
      [
        'whitelistInvestorWallet',
        `mutation($i: InvestorWalletRef!) { whitelistInvestorWallet(input: $i) { status } }`,
        { i: { investorId: other.id, chainId: CHAIN } },
      ],
    ];
    const answers = [];
    for (const [name, query, variables, token] of OPERATIONS) {
      const res = token ? (await gw.graphql(query, variables, { token })).body : await opsCall(gw, query, variables);
      answers.push([name, res.errors?.[0]?.extensions, res.errors?.[0]?.message]);
    }
    proxy.decide = () => 'forward';

    // then each answers 503 with when to try again
    expect(answers).toEqual(
      OPERATIONS.map(([name]) => [
        name,
        expect.objectContaining({ code: 'SERVICE_UNAVAILABLE', retryAfter: 5 }),
        `chain ${CHAIN} is unreachable: its node does not answer`,
      ]),
    );
    // and nothing was done
    expect(await gw.em().fork().count(ChainTransaction, {})).toBe(intents);
    expect((await gw.em().fork().findOneOrFail(Order, { id: accepted.id })).status).toBe('accepted');
    expect(
      await gw
        .em()
        .fork()
        .find(InvestorWallet, { investor: m.investor.id }, { fields: ['address', 'status'] }),
    ).toEqual([expect.objectContaining({ address: wallet, status: WalletStatus.whitelisted })]);
    expect((await gw.em().fork().findOneOrFail(InvestorWallet, { investor: other.id })).status).toBe(WalletStatus.pending);
    expect(await chainClients((await workerChain()).rpcUrl).balanceOf(m.token.contractAddress, wallet)).toBe(800n * 10n ** 6n);
  });
});
