import { parseUnits, type Hex } from 'viem';
import { ANVIL_DEV_KEY } from '../../src/config/chains';
import { DomainEvent } from '../../src/events/event.entity';
import { ChainTransaction, ChainTxStatus } from '../../src/modules/chain/chain-transaction.entity';
import { DISTRIBUTION_MINT } from '../../src/modules/distribution/distribution-onchain';
import { Distribution, DistributionEntitlement, EntitlementStatus } from '../../src/modules/distribution/distribution.entity';
import { Holding } from '../../src/modules/holding/holding.entity';
import { serverUrl } from '../support/database';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { killed, startChildGateway, type ChildGateway } from '../support/child-gateway';
import { httpRequest } from '../support/http';
import { chainClients, eventually, testChains, workerChain, type ChainClients } from '../support/chain';
import { aChainMarket } from '../support/chain.factories';
import { aDeclaredReinvestment, holdersSinceOctober, manyWhitelistedHolders, mintsSince, PAY } from '../support/income.factories';
import { RpcProxy } from '../support/rpc-proxy';

/*
 * A reinvestment paid by the built gateway as its own process, SIGKILLed in the middle of paying,
 * then restarted on the same database and chain: every holder is minted its entitlement exactly
 * once. DRILL_HOLDERS holders (150 by default: batchMint takes 100 rows, so two batches at least),
 * each holding 1,000 tokens on the record date, paid 0.02 a token at a NAV of 2: 10 tokens each.
 * The embedded database belongs to one process, so this runs against a PostgreSQL server
 * (DATABASE_URL) only.
 */
jest.setTimeout(600_000);
const onServer = serverUrl() ? describe : describe.skip;
const HOLDERS = Number(process.env.DRILL_HOLDERS ?? 150);
const ENTITLED = parseUnits('10', 6);

onServer('A gateway SIGKILLed while paying a reinvestment mints each holder exactly once after a restart', () => {
  let gw: TestGateway | null = null;
  let proxy: RpcProxy;
  let child: ChildGateway | null = null;
  let chain: ChainClients;
  let rpcUrl: string;
  beforeAll(async () => {
    rpcUrl = (await workerChain()).rpcUrl;
    chain = chainClients(rpcUrl);
    proxy = await RpcProxy.start(rpcUrl);
  });
  afterAll(async () => {
    if (child) await killed(child.child, 'SIGKILL');
    await gw?.close();
    await proxy.close();
  });

  const childEnv = () => ({
    DATABASE_URL: gw!.db.url!,
    DRILL_AGENT_KEY: ANVIL_DEV_KEY,
    CHAINS: JSON.stringify({ '31337': { rpcUrls: [proxy.url], confirmations: 2, agentKeyEnv: 'DRILL_AGENT_KEY', replaceAfterMs: 600000, leaseSeconds: 2 } }),
  });

  /** A declared reinvestment to HOLDERS holders, prepared by an in-process gateway that then stops (its sender releases the key's lease: the child is the one writer). */
  async function declared() {
    if (gw) await gw.db.close();
    gw = await startTestGateway({ chains: await testChains({ leaseSeconds: 2 }) });
    await gw.reset();
    const m = await aChainMarket(gw);
    const wallets = await manyWhitelistedHolders(gw, rpcUrl, m, HOLDERS);
    await holdersSinceOctober(gw, rpcUrl, m, wallets, '1000');
    const id = await aDeclaredReinvestment(gw, m, '0.02');
    const fromBlock = (await chain.pub.getBlockNumber()) + 1n;
    const token = await gw.opsToken();
    await gw.gateway.close();
    return { m, wallets, id, fromBlock, token };
  }

  async function payThroughChild(id: string, token: string) {
    child = await startChildGateway(childEnv());
    const res = await httpRequest(child.port, 'POST', '/graphql', { headers: { authorization: `Bearer ${token}` }, body: { query: PAY, variables: { id } } });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.payDistribution.status).toBe('paying');
  }

  const batches = () => gw!.em().find(ChainTransaction, { purpose: DISTRIBUTION_MINT }, { orderBy: { id: 'asc' } });

  async function killChild(signal: NodeJS.Signals) {
    await killed(child!.child, signal);
    child = null;
  }

  /** Restarted, the gateway finishes paying: each holder minted its 10 tokens once, by the batches signed before the kill. */
  async function paidExactlyOnceAfterRestart(run: Awaited<ReturnType<typeof declared>>, before: ChainTransaction[]) {
    const { m, wallets, id, fromBlock } = run;
    proxy.decide = () => 'forward';
    child = await startChildGateway(childEnv());
    await eventually('the distribution paid', async () => (await gw!.em().findOneOrFail(Distribution, { id })).status === 'paid', 300_000);
    const rows = await gw!.em().find(DistributionEntitlement, { distributionId: id });
    expect(rows).toHaveLength(HOLDERS);
    expect(rows.filter((r) => r.status !== 'paid')).toEqual([]);
    // The same batches as at the kill, each signed once and confirmed; no batch was added.
    const after = await batches();
    expect(after.map((t) => [t.id, t.status, t.hashes.length])).toEqual(before.map((t) => [t.id, ChainTxStatus.confirmed, 1]));
    for (const r of rows) expect(r.transferHash).toBe(after.find((t) => String(t.id) === String(r.transactionId))!.hash);
    // On chain: one mint per wallet, of exactly its entitlement, by those batches; every wallet holds its register balance.
    const mints = await mintsSince(chain, m.token.contractAddress, fromBlock);
    expect(mints.size).toBe(HOLDERS);
    for (const [investorId, wallet] of wallets) {
      expect(mints.get(wallet)).toEqual({ count: 1, value: ENTITLED });
      const held = (await gw!.em().findOneOrFail(Holding, { investor: investorId, shareClass: m.shareClass.id })).balance;
      expect(Number(held)).toBe(1010);
      expect(await chain.balanceOf(m.token.contractAddress, wallet)).toBe(parseUnits('1010', 6));
    }
    // One distribution.paid per investor.
    const paid = await gw!.em().find(DomainEvent, { type: 'distribution.paid', aggregateId: id });
    expect(paid.map((e) => e.payload.investorId).sort()).toEqual([...wallets.keys()].sort());
    await killChild('SIGTERM');
  }

  it('killed the moment payDistribution answered: after the restart the queued batches are sent, each holder minted once', async () => {
    // given a declared reinvestment
    const run = await declared();
    // when the child answers payDistribution and is killed at once
    proxy.decide = () => 'forward';
    await payThroughChild(run.id, run.token);
    await killChild('SIGKILL');
    // The moment of the kill: the batches queued with the distribution's `paying`, none final.
    const before = await batches();
    expect(before.length).toBeGreaterThanOrEqual(2);
    expect(before.filter((t) => t.status === ChainTxStatus.confirmed)).toEqual([]);
    expect((await gw!.em().findOneOrFail(Distribution, { id: run.id })).status).toBe('paying');
    // then, restarted, it pays every holder once
    await paidExactlyOnceAfterRestart(run, before);
  });

  it('killed with every batch mined and only the first one booked: after the restart the others are booked from their receipts, each holder minted once', async () => {
    // given a declared reinvestment, paid by a child that hears no receipt but the first batch's
    const run = await declared();
    const allowed = new Set<string>();
    proxy.decide = (method, params) => (method === 'eth_getTransactionReceipt' && !allowed.has(String(params[0]).toLowerCase()) ? 'down' : 'forward');
    await payThroughChild(run.id, run.token);
    const sent = await eventually('every batch sent', async () => {
      const all = await batches();
      return all.every((t) => t.status === ChainTxStatus.sent) ? all : undefined;
    });
    allowed.add(sent[0].hash!.toLowerCase());
    await eventually('the first batch booked', async () => (await batches())[0].status === ChainTxStatus.confirmed);
    // when it is killed
    await killChild('SIGKILL');
    // The moment of the kill: the first batch's holders paid, the other batches mined, their outcomes not written.
    const before = await batches();
    expect(before.length).toBeGreaterThanOrEqual(2);
    expect(before.slice(1).map((t) => t.status)).toEqual(before.slice(1).map(() => ChainTxStatus.sent));
    for (const t of before.slice(1)) expect((await chain.pub.getTransactionReceipt({ hash: t.hash as Hex })).status).toBe('success');
    const paidBefore = await gw!.em().count(DistributionEntitlement, { distributionId: run.id, status: EntitlementStatus.paid });
    expect(paidBefore).toBe(await gw!.em().count(DistributionEntitlement, { transactionId: before[0].id }));
    expect(paidBefore).toBeLessThan(HOLDERS);
    expect((await gw!.em().findOneOrFail(Distribution, { id: run.id })).status).toBe('paying');
    // then, restarted, it pays every holder once
    await paidExactlyOnceAfterRestart(run, before);
  });
});
