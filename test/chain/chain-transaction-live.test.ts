import { eventually, randomWallet, testChains } from '../support/chain';
import { aChainMarket, aWhitelistedWallet } from '../support/chain.factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { subscribe } from '../support/subscriptions';
import { aDistributor } from '../support/factories';
import { aTokenPair } from '../support/auth.factories';

/*
 * `chainTransactionFinal`: a chain transaction's final status, told once the outcome it settled
 * (here a wallet whitelisted) is committed with it. Ops only.
 */
describe('chainTransactionFinal subscription', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ chains: await testChains(), background: true, events: { pollMs: 50 } });
    await gw.reset();
  });
  afterAll(() => gw.close());

  it("tells ops of a wallet's registrations as they become final, the wallet whitelisted by then", async () => {
    // given a market on the worker's chain and ops subscribed
    const m = await aChainMarket(gw);
    const live = await subscribe(
      gw.port,
      `subscription { chainTransactionFinal(chainId: "31337") { chainTransactionId chainId purpose status walletId orderId } }`,
      {},
      await gw.opsToken(),
    );
    // when a wallet is whitelisted on chain
    const wallet = await aWhitelistedWallet(gw, m.investor.id, randomWallet());
    // then its wallet.* transactions were told as confirmed, naming the wallet
    const told = await eventually(
      'the wallet registrations told',
      async () => {
        if (live.errors.length) throw new Error(JSON.stringify(live.errors));
        const wallets = live.messages.map((x) => x.chainTransactionFinal).filter((t) => t.purpose.startsWith('wallet.') && t.walletId === String(wallet.id));
        return wallets.length ? wallets : undefined;
      },
      30_000,
    );
    for (const t of told)
      expect(t).toEqual({
        chainTransactionId: expect.any(String),
        chainId: '31337',
        purpose: expect.stringMatching(/^wallet\./),
        status: 'confirmed',
        walletId: String(wallet.id),
        orderId: null,
      });
    expect(live.errors).toEqual([]);
    await live.close();
  }, 180_000);

  it('is refused to a distributor', async () => {
    const d = await aDistributor(gw.em(), ['live-refused.test']);
    const live = await subscribe(gw.port, `subscription { chainTransactionFinal { chainTransactionId } }`, {}, (await aTokenPair(gw, d)).accessToken);
    const errors = await eventually('the refusal', async () => (live.errors.length ? live.errors : undefined));
    expect(errors[0]).toMatchObject({ extensions: { code: 'FORBIDDEN' } });
    await live.close();
  });
});
