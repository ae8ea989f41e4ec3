import { ChainTransaction } from '../../src/modules/chain/chain-transaction.entity';
import { chainClients, testChains, workerChain, type ChainClients } from '../support/chain';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aWorld, PATHS, type Victim, type World } from './wallet-paths';

/*
 * The custody rule (docs/custody.md), attacked on every path that can reach a mint, a burn, a
 * freeze, a recovery or a forced transfer: distributor A's investor A1 names (a) the wallet of
 * A2, another investor of A, and (b) the wallet of B1, distributor B's investor — both holding
 * tokens on the worker's anvil, on a real T-REX suite. Each path is refused as documented, no
 * chain transaction is queued, and balanceOf on chain shows nothing moved.
 */

jest.setTimeout(600_000);

describe('Custody: a wallet belongs to one investor, on every path that moves value', () => {
  let gw: TestGateway;
  let chain: ChainClients;
  let w: World;
  let before: { a2: bigint; b1: bigint; a1: bigint };
  beforeAll(async () => {
    gw = await startTestGateway({ chains: await testChains() });
    chain = chainClients((await workerChain()).rpcUrl);
    w = await aWorld(gw);
    before = await balances();
    expect(before).toEqual({ a1: 0n, a2: 800n * 10n ** 6n, b1: 800n * 10n ** 6n });
  });
  afterAll(() => gw.close());

  const balances = async () => ({
    a1: await chain.balanceOf(w.token.contractAddress, w.wallets.a1),
    a2: await chain.balanceOf(w.token.contractAddress, w.wallets.a2),
    b1: await chain.balanceOf(w.token.contractAddress, w.wallets.b1),
  });
  const VICTIMS: [Victim, string][] = [
    ['a', "another investor's wallet of the same distributor"],
    ['b', "another tenant's investor's wallet"],
  ];

  for (const p of PATHS) {
    for (const [victim, whose] of VICTIMS) {
      it(`${p.path} over ${p.door}, with ${whose}: refused, nothing sent, nothing moved on chain`, async () => {
        const wallet = victim === 'a' ? w.wallets.a2 : w.wallets.b1;
        const intents = await gw.em().fork().count(ChainTransaction, {});
        const res = await p.attempt(gw, w, wallet);
        const answer = res.status === undefined || res.status === 200 ? { body: res.body } : { status: res.status, body: res.body };
        expect(answer).toEqual(p.expected(w));
        // never says whose the address is
        expect(JSON.stringify(res.body)).not.toContain(victim === 'a' ? w.a2.id : w.b1.id);
        expect(await gw.em().fork().count(ChainTransaction, {})).toBe(intents);
        await chain.test.mine({ blocks: 2 });
        expect(await balances()).toEqual(before);
      });
    }
  }
});
