import { createWalletClient, encodeFunctionData, http, parseEther, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { DomainEvent } from '../../src/events/event.entity';
import { ChainMovement, ChainMovementKind } from '../../src/modules/chain/chain-movement.entity';
import { TOKEN_ABI } from '../../src/modules/chain/contracts';
import { Holding } from '../../src/modules/holding/holding.entity';
import { HoldingLot } from '../../src/modules/holding/holding-lot.entity';
import { Order } from '../../src/modules/order/order.entity';
import { aDistributor, anInvestor, aShareClass } from '../support/factories';
import { aChainMarket, aWhitelistedWallet, behindTheGateway, onTheWorkerChain, opsCall } from '../support/chain.factories';
import { httpRequest } from '../support/http';
import { ReconciliationSchedule } from '../../src/modules/register/reconciliation';
import type { TestGateway } from '../support/gateway';
import { aOneStepOrder } from '../support/one-step.factories';
import { eventually, type ChainClients } from '../support/chain';

/*
 * The chain follower and reconciliation on the worker's anvil with the T-REX contracts the
 * gateway deploys. Investors sign their own transfers with their wallets' keys; the agent key
 * mints behind the gateway's back. No mock of the chain.
 */
jest.setTimeout(240_000);

const CHAIN = '31337';

const RECONCILE = `query($sc: ID!) { reconciliation(shareClassId: $sc) { blockNumber totalSupply registerTotal supplyDifference totalDifference
  differences { investorId wallets registerBalance chainBalance difference movements { kind transactionHash fromAddress toAddress tokens } } } }`;

describe('The register follows the chain: transfers the gateway did not make, reorgs, reconciliation', () => {
  const world = onTheWorkerChain();
  let gw: TestGateway;
  let chain: ChainClients;
  let rpcUrl: string;
  beforeAll(() => ({ gw, chain, rpcUrl } = world));

  const ops = (query: string, variables: Record<string, unknown> = {}) => opsCall(gw, query, variables) as Promise<any>;

  /** A share class with a suite deployed by the gateway (aChainMarket), and two investors with wallets they hold the keys of, whitelisted on chain. */
  async function market() {
    const m = await aChainMarket(gw);
    const alice = await holder(m.distributor, m.shareClass);
    const bob = await holder(m.distributor, m.shareClass);
    return { ...m, alice, bob };
  }

  /** An investor whose wallet's key the test holds (funded with ETH on anvil), whitelisted on chain by the gateway. */
  async function holder(distributor: Awaited<ReturnType<typeof aDistributor>>, shareClass: Awaited<ReturnType<typeof aShareClass>>) {
    const investor = await anInvestor(gw.em(), distributor, { grants: [shareClass], walletChain: null });
    const account = privateKeyToAccount(generatePrivateKey());
    await chain.test.setBalance({ address: account.address, value: parseEther('10') });
    await aWhitelistedWallet(gw, investor.id, account.address.toLowerCase());
    const wallet = createWalletClient({ account, chain: chain.pub.chain, transport: http(rpcUrl) });
    return { investor, account, address: account.address.toLowerCase(), wallet };
  }

  /** Settles a subscription of `amount` on chain (the gateway's own mint). */
  async function subscribed(m: Awaited<ReturnType<typeof market>>, who: Awaited<ReturnType<typeof holder>>, amount: string) {
    const order = await aOneStepOrder(gw, { ...m, investor: who.investor }, { amount, stage: 'accepted', chainId: CHAIN });
    const res = await ops(`mutation($id: ID!) { settleOneStepOrder(orderId: $id) { id } }`, { id: order.id });
    expect(res.errors).toBeUndefined();
    return eventually(`order ${order.id} settled`, async () => {
      const o = await gw.em().findOneOrFail(Order, { id: order.id });
      if (o.status === 'failed') throw new Error(o.failureReason);
      return o.status === 'settled' ? o : undefined;
    });
  }

  const balance = async (investorId: string, shareClassId: string) =>
    (await gw.em().findOne(Holding, { investor: investorId, shareClass: shareClassId }))?.balance ?? '0';
  const num = (s: string) => Number(s);
  const holdingChanged = async (hash: string) =>
    (await gw.em().find(DomainEvent, { type: 'holding.changed' }, { orderBy: { position: 'asc' } }))
      .map((e) => e.payload as Record<string, any>)
      .filter((p) => p.transferHash === hash);

  it('an investor sends tokens to another whitelisted investor: the register moves both holdings (holding.changed for each); anvil_reorg removing that block undoes it', async () => {
    const m = await market();
    await subscribed(m, m.alice, '1000'); // 800 tokens
    expect(num(await balance(m.alice.investor.id, m.shareClass.id))).toBe(800);

    // Alice signs a transfer of 125.5 tokens to Bob with her own key.
    const hash = await m.alice.wallet.sendTransaction({
      to: m.token.contractAddress as Hex,
      data: encodeFunctionData({ abi: TOKEN_ABI, functionName: 'transfer', args: [m.bob.account.address, 125_500_000n] }),
    });
    const receipt = await chain.pub.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');

    const moved = await eventually('the follower moved the register', async () => {
      const rows = await gw.em().find(ChainMovement, { transactionHash: hash.toLowerCase() });
      return rows.length ? rows : undefined;
    });
    expect(moved).toHaveLength(1);
    expect(moved[0]).toMatchObject({
      kind: ChainMovementKind.transfer,
      fromInvestorId: m.alice.investor.id,
      toInvestorId: m.bob.investor.id,
      fromAddress: m.alice.address,
      toAddress: m.bob.address,
    });
    expect(num(moved[0].tokens)).toBe(125.5);
    expect(num(await balance(m.alice.investor.id, m.shareClass.id))).toBe(674.5);
    expect(num(await balance(m.bob.investor.id, m.shareClass.id))).toBe(125.5);
    // Followed at the confirmation depth, never at the first receipt.
    const head = await chain.pub.getBlockNumber();
    expect(head - receipt.blockNumber + 1n).toBeGreaterThanOrEqual(2n);

    const events = await holdingChanged(hash.toLowerCase());
    expect(events.map((e) => [e.investorId, num(e.change), num(e.balance)])).toEqual([
      [m.alice.investor.id, -125.5, 674.5],
      [m.bob.investor.id, 125.5, 125.5],
    ]);
    // Bob's tokens count lock-up from the transfer: a lot of their own.
    const bobLots = await gw.em().find(HoldingLot, { investor: m.bob.investor.id, shareClass: m.shareClass.id });
    expect(bobLots.map((l) => [num(l.quantity), l.source])).toEqual([[125.5, 'transfer']]);

    // The transfer's block leaves the chain: the register goes back.
    const now = await chain.pub.getBlockNumber();
    await chain.test.request({ method: 'anvil_reorg' as never, params: [Number(now - receipt.blockNumber + 1n), []] as never });
    expect(await chain.pub.getTransactionReceipt({ hash }).catch(() => null)).toBeNull();
    await eventually('the follower undid the transfer', async () =>
      (await gw.em().findOneOrFail(ChainMovement, { id: moved[0].id })).undoneAt ? true : undefined,
    );
    expect(num(await balance(m.alice.investor.id, m.shareClass.id))).toBe(800);
    expect(num(await balance(m.bob.investor.id, m.shareClass.id))).toBe(0);
    const after = await holdingChanged(hash.toLowerCase());
    expect(after.slice(2).map((e) => [e.investorId, num(e.change), e.reorg])).toEqual([
      [m.bob.investor.id, -125.5, true],
      [m.alice.investor.id, 125.5, true],
    ]);
    // On chain too: Alice holds her 800 again.
    expect(await chain.balanceOf(m.token.contractAddress, m.alice.address)).toBe(800_000_000n);
  });

  it("reconciliation after a mint made behind the gateway's back (the agent key, directly on anvil) lists exactly that difference, with the mint that explains it", async () => {
    const m = await market();
    await subscribed(m, m.alice, '1000'); // 800 tokens
    const clean = await ops(RECONCILE, { sc: m.shareClass.id });
    expect(clean.errors).toBeUndefined();
    expect(clean.data.reconciliation).toMatchObject({ differences: [], supplyDifference: '0', totalDifference: '0' });
    expect(Number(clean.data.reconciliation.totalSupply)).toBe(800);

    const hash = await behindTheGateway(gw, rpcUrl, m.token.contractAddress, TOKEN_ABI, 'mint', [m.bob.account.address, 42_000_000n]);
    const seen = await eventually('the follower recorded the mint', async () => gw.em().findOne(ChainMovement, { transactionHash: hash.toLowerCase() }));
    expect(seen).toMatchObject({ kind: ChainMovementKind.issuance, toInvestorId: m.bob.investor.id });
    // The register does not follow issuance it did not make.
    expect(num(await balance(m.bob.investor.id, m.shareClass.id))).toBe(0);

    const res = await ops(RECONCILE, { sc: m.shareClass.id });
    expect(res.errors).toBeUndefined();
    const r = res.data.reconciliation;
    expect(num(r.totalSupply)).toBe(842);
    expect(num(r.registerTotal)).toBe(800);
    expect(num(r.supplyDifference)).toBe(42);
    expect(num(r.totalDifference)).toBe(42);
    expect(r.differences).toHaveLength(1);
    expect(r.differences[0]).toMatchObject({ investorId: m.bob.investor.id, wallets: [m.bob.address], registerBalance: '0', difference: '42' });
    expect(num(r.differences[0].chainBalance)).toBe(42);
    expect(r.differences[0].movements).toEqual([
      {
        kind: 'issuance',
        transactionHash: hash.toLowerCase(),
        fromAddress: '0x0000000000000000000000000000000000000000',
        toAddress: m.bob.address,
        tokens: '42',
      },
    ]);
    expect(Number(r.blockNumber)).toBeGreaterThan(0);

    // The scheduled run records it, and /metrics shows it for the share class.
    const schedule = new ReconciliationSchedule(gw.db.orm, gw.gateway.services.reconciliation!, { now: () => new Date() });
    expect(await schedule.runAll()).toBe(1);
    const metrics = await httpRequest(gw.port, 'GET', '/metrics');
    expect(metrics.text).toContain(`register_chain_difference{share_class="${m.shareClass.id}"} 42`);

    // Raised to ops as well.
    const unexplained = await ops(`{ unexplainedChainMovements { transactionHash kind } }`);
    expect(unexplained.data.unexplainedChainMovements).toEqual([{ transactionHash: hash.toLowerCase(), kind: 'issuance' }]);
  });
});
