import { createWalletClient, encodeFunctionData, http, parseEther, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ChainMovement } from '../../src/modules/chain/chain-movement.entity';
import { TOKEN_ABI } from '../../src/modules/chain/contracts';
import { ReconciliationSchedule } from '../../src/modules/register/reconciliation';
import { HoldingLot } from '../../src/modules/holding/holding-lot.entity';
import { ShareClass } from '../../src/modules/share-class/share-class.entity';
import { Webhook } from '../../src/modules/webhook/webhook.entity';
import { Order } from '../../src/modules/order/order.entity';
import { rawRows } from '../../src/persistence/raw-query';
import { aDistributor, aGrant, aNav, anInvestor } from '../support/factories';
import { aChainMarket, aReleasedLot, aWhitelistedWallet, opsCall } from '../support/chain.factories';
import { chainClients, eventually, testChains, workerChain, type ChainClients } from '../support/chain';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { httpRequest } from '../support/http';
import { aOneStepOrder } from '../support/one-step.factories';

/*
 * Transfers between holders on anvil (investors sign with their own keys), the webhooks each
 * distributor gets of them, the register at a past date against balanceOf, its CSV, and a
 * transfer to a wallet the register does not know. The chain's time is set with
 * evm_setNextBlockTimestamp, the gateway's with its clock, so that days are known.
 */
jest.setTimeout(240_000);

const DAY = 86_400_000;
const REGISTER = `query($sc: ID!, $d: String!) { register(shareClassId: $sc, asOf: $d) { asOf timeZone blockNumber total holders { investorId distributorId balance locked chainBalance wallets { address balance } } } }`;

describe('Transfers between holders and the register at a date', () => {
  let gw: TestGateway;
  let chain: ChainClients;
  let rpcUrl: string;
  beforeAll(async () => {
    gw = await startTestGateway({ chains: await testChains(), background: true });
    rpcUrl = (await workerChain()).rpcUrl;
    chain = chainClients(rpcUrl);
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  /** Noon UTC of the day after the chain's newest block: the chain's next block and the gateway's clock both go there. */
  async function nextNoon(): Promise<Date> {
    const head = await chain.pub.getBlock();
    const noon = new Date(Math.floor((Number(head.timestamp) * 1000) / DAY) * DAY + DAY + DAY / 2);
    await chain.test.request({ method: 'evm_setNextBlockTimestamp' as never, params: [Math.floor(noon.getTime() / 1000)] as never });
    gw.clock.set(noon);
    return noon;
  }

  async function holder(m: Awaited<ReturnType<typeof aChainMarket>>, distributor = m.distributor) {
    const investor = await anInvestor(gw.em(), distributor, { grants: [m.shareClass], walletChain: null });
    const account = privateKeyToAccount(generatePrivateKey());
    await chain.test.setBalance({ address: account.address, value: parseEther('10') });
    await aWhitelistedWallet(gw, investor.id, account.address.toLowerCase());
    return {
      investor,
      account,
      address: account.address.toLowerCase(),
      wallet: createWalletClient({ account, chain: chain.pub.chain, transport: http(rpcUrl) }),
    };
  }
  type Holder = Awaited<ReturnType<typeof holder>>;

  /** A subscription settled on chain at the gateway's clock, priced at a NAV published that day. */
  async function subscribed(m: Awaited<ReturnType<typeof aChainMarket>>, who: Holder, amount: string) {
    const order = await aOneStepOrder(gw, { ...m, investor: who.investor }, { amount, stage: 'accepted', chainId: '31337' });
    await aNav(gw.em(), m.shareClass, '1.25', new Date(`${(await gw.em().findOneOrFail(Order, { id: order.id })).dealingDate}T00:00:01Z`));
    const res = await opsCall(gw, `mutation($id: ID!) { settleOneStepOrder(orderId: $id) { id } }`, { id: order.id });
    expect(res.errors).toBeUndefined();
    await eventually(`order ${order.id} settled`, async () => {
      const o = await gw.em().findOneOrFail(Order, { id: order.id });
      if (o.status === 'failed') throw new Error(o.failureReason);
      return o.status === 'settled' ? o : undefined;
    });
  }

  /** The share class's lock-up, in days from each lot's settlement. */
  async function lockUp(m: Awaited<ReturnType<typeof aChainMarket>>, days: number) {
    const em = gw.em();
    const sc = await em.findOneOrFail(ShareClass, { id: m.shareClass.id });
    sc.subRedemption = { ...sc.subRedemption, lockup: days };
    await em.flush();
    return sc;
  }

  /** `from` sends `units` (6 decimals) to `to` with its own key; waits until the follower recorded it. */
  async function transfer(m: Awaited<ReturnType<typeof aChainMarket>>, from: Holder, to: string, units: bigint) {
    const hash = await from.wallet.sendTransaction({
      to: m.token.contractAddress as Hex,
      data: encodeFunctionData({ abi: TOKEN_ABI, functionName: 'transfer', args: [to as Hex, units] }),
    });
    const receipt = await chain.pub.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    await eventually('the follower followed the transfer', async () => gw.em().findOne(ChainMovement, { transactionHash: hash.toLowerCase() }));
    return { hash: hash.toLowerCase(), block: receipt.blockNumber };
  }

  it("a transfer keeps the lots' settlement dates (no re-lock: the receiver may redeem at once); each distributor's holding.changed webhook carries only its own investor", async () => {
    const m = await aChainMarket(gw);
    const sc = await lockUp(m, 30);
    const other = await aDistributor(gw.em(), ['dist-b.test']);
    await aGrant(gw.em(), other, m.shareClass);
    const [alice, carol, bob] = [await holder(m), await holder(m), await holder(m, other)];
    const em = gw.em();
    em.create(Webhook, {
      id: 'wh_a',
      distributor: m.distributor.id,
      eventType: 'holding.changed',
      endpointUrl: 'https://hooks.example/a',
      secretCipher: 'unused',
    } as never);
    em.create(Webhook, {
      id: 'wh_b',
      distributor: other.id,
      eventType: 'holding.changed',
      endpointUrl: 'https://hooks.example/b',
      secretCipher: 'unused',
    } as never);
    await em.flush();

    const settled = await nextNoon();
    await subscribed(m, alice, '1000'); // 800 tokens, settled now
    const [aliceLot] = await gw.em().find(HoldingLot, { investor: alice.investor.id, shareClass: m.shareClass.id });
    // 31 days later Alice's tokens are out of lock-up; she sends 125.5 to Bob (another distributor's) and 10 to Carol (hers).
    gw.clock.set(new Date(settled.getTime() + 31 * DAY));
    await gw.gateway.services.lockUpOnChain!.releaseDue(gw.db.orm);
    await aReleasedLot(gw, aliceLot.id);
    const toBob = await transfer(m, alice, bob.address, 125_500_000n);
    const toCarol = await transfer(m, alice, carol.address, 10_000_000n);

    const bobLots = await gw.em().find(HoldingLot, { investor: bob.investor.id, shareClass: m.shareClass.id });
    expect(bobLots.map((l) => [Number(l.quantity), l.source, l.settledAt.getTime()])).toEqual([[125.5, 'transfer', aliceLot.settledAt.getTime()]]);
    const position = await gw.gateway.services.ledger.position(gw.em(), bob.investor.id, sc, gw.clock.now());
    expect(position).toMatchObject({ balance: '125.5', unlocked: '125.5' });

    const bodies = await eventually(
      'the holding.changed deliveries',
      async () => {
        const rows = await rawRows<{ webhook_id: string; body: string }>(
          gw.em(),
          `select webhook_id, body from webhook_delivery where event_type = 'holding.changed' and body like '%"transfer"%' order by id`,
          [],
        );
        return rows.length === 4 ? rows.map((r) => [r.webhook_id, JSON.parse(r.body).data]) : undefined;
      },
      20_000,
    );
    const seen = (hook: string) => bodies.filter(([h]) => h === hook).map(([, d]) => [d.investorId, d.transferHash, d.direction, d.change, d.counterparty]);
    expect(seen('wh_a')).toEqual([
      [alice.investor.id, toBob.hash, 'out', '-125.5', null],
      [alice.investor.id, toCarol.hash, 'out', '-10', { investorId: carol.investor.id, wallet: carol.address }],
      [carol.investor.id, toCarol.hash, 'in', '10', { investorId: alice.investor.id, wallet: alice.address }],
    ]);
    expect(seen('wh_b')).toEqual([[bob.investor.id, toBob.hash, 'in', '125.5', null]]);
    expect(JSON.stringify(bodies.filter(([h]) => h === 'wh_b'))).not.toContain(alice.investor.id);
    expect(JSON.stringify(bodies.filter(([h]) => h === 'wh_b'))).not.toContain(alice.address);
  });

  it('the register at a past date equals balanceOf at the block closing that day; its CSV is exact; only an ops token gets it', async () => {
    const m = await aChainMarket(gw);
    const [alice, bob] = [await holder(m), await holder(m)];
    const day1 = await nextNoon();
    await subscribed(m, alice, '1000'); // 800
    await nextNoon();
    const t = await transfer(m, alice, bob.address, 100_000_000n);
    gw.clock.set(new Date(gw.clock.now().getTime() + DAY));
    // A 30-day lock-up from here on: at both dates every token is still in it (a transfer keeps its lot's settlement date).
    await lockUp(m, 30);
    const d1 = day1.toISOString().slice(0, 10);
    const d2 = new Date(day1.getTime() + DAY).toISOString().slice(0, 10);

    const r1 = (await opsCall(gw, REGISTER, { sc: m.shareClass.id, d: d1 })).data!.register;
    expect(BigInt(r1.blockNumber)).toBe(t.block - 1n);
    expect(r1.holders).toEqual([
      {
        investorId: alice.investor.id,
        distributorId: m.distributor.id,
        balance: '800',
        locked: '800',
        chainBalance: '800',
        wallets: [{ address: alice.address, balance: '800' }],
      },
    ]);
    expect(
      await chain.pub.readContract({
        address: m.token.contractAddress as Hex,
        abi: TOKEN_ABI,
        functionName: 'balanceOf',
        args: [alice.address as Hex],
        blockNumber: BigInt(r1.blockNumber),
      }),
    ).toBe(800_000_000n);

    const r2 = (await opsCall(gw, REGISTER, { sc: m.shareClass.id, d: d2 })).data!.register;
    expect(BigInt(r2.blockNumber)).toBeGreaterThanOrEqual(t.block);
    for (const h of r2.holders) {
      const [w] = h.wallets;
      const onChain = await chain.pub.readContract({
        address: m.token.contractAddress as Hex,
        abi: TOKEN_ABI,
        functionName: 'balanceOf',
        args: [w.address],
        blockNumber: BigInt(r2.blockNumber),
      });
      expect(onChain).toBe(BigInt(Number(h.balance) * 1e6));
    }
    expect(r2.holders.map((h: any) => [h.balance, h.locked]).sort()).toEqual([
      ['100', '100'],
      ['700', '700'],
    ]);

    const csv = await httpRequest(gw.port, 'GET', `/ops/register.csv?shareClassId=${m.shareClass.id}&asOf=${d1}`, {
      headers: { authorization: `Bearer ${await gw.opsToken()}` },
    });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.text).toBe(
      'shareClassId,asOf,timeZone,blockNumber,investorId,distributorId,balance,locked,wallet,walletBalance\r\n' +
        `${m.shareClass.id},${d1},UTC,${r1.blockNumber},${alice.investor.id},${m.distributor.id},800,800,${alice.address},800\r\n`,
    );
    expect((await httpRequest(gw.port, 'GET', `/ops/register.csv?shareClassId=${m.shareClass.id}&asOf=${d1}`)).status).toBe(401);
    expect(
      (await httpRequest(gw.port, 'GET', `/ops/register.csv?shareClassId=${m.shareClass.id}&asOf=${d1}`, { headers: { authorization: 'Bearer nope' } })).status,
    ).toBe(401);

    const statement = await httpRequest(gw.port, 'GET', `/ops/statement.csv?investorId=${bob.investor.id}&from=${d1}&to=${d2}`, {
      headers: { authorization: `Bearer ${await gw.opsToken()}` },
    });
    expect(statement.status).toBe(200);
    expect(statement.text.split('\r\n')[0]).toBe('section,at,shareClassId,reference,type,status,change,balance,amount,currency,tokens');
    expect(statement.text).toContain(`,${m.shareClass.id},${t.hash},transfer,,100,100,,,`);
  });

  it('a transfer to a wallet the register does not know is flagged on reconciliation with its block and hash, and raises the alert metric', async () => {
    const m = await aChainMarket(gw);
    const alice = await holder(m);
    await subscribed(m, alice, '1000');
    // A wallet whitelisted on chain that the register then forgets (T-REX sends only to verified wallets).
    const stranger = (await holder(m)).address;
    await rawRows(gw.em(), 'delete from investor_wallet where lower(address) = ?', [stranger]);
    const t = await transfer(m, alice, stranger, 5_000_000n);

    const r = await gw.gateway.services.reconciliation!.run(gw.em(), m.shareClass.id);
    expect(r.unknownWalletTransfers).toEqual([
      { blockNumber: String(t.block), transactionHash: t.hash, fromAddress: alice.address, toAddress: stranger.toLowerCase(), tokens: '5' },
    ]);
    await new ReconciliationSchedule(gw.db.orm, gw.gateway.services.reconciliation!, { now: () => new Date() }).runAll();
    const metrics = await httpRequest(gw.port, 'GET', '/metrics');
    expect(metrics.text).toContain(`register_unknown_wallet_transfers{share_class="${m.shareClass.id}"} 1`);
  });
});
