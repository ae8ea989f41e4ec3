/**
 * Settlement on the embedded chain: time from `settleOneStepOrder` (no hash) to the order
 * `settled`, and gas per mint and burn, over real T-REX 4.1.6 contracts on anvil (1-second
 * blocks, transactions mined at once, 2 confirmations as the embedded default).
 *
 *   npm run bench:settlement                          (N=20 sequential, then N at once, then a dealing date of 1,000)
 *   BENCH_ORDERS=50 BENCH_DEALING_ORDERS=200 DATABASE_URL=postgres://… npm run bench:settlement
 *
 * The dealing date (settleDealingDate, issue 22): BENCH_DEALING_ORDERS accepted subscriptions of
 * one date settled with batchMint; gateway time is the mutation's own time (pricing, checks on
 * chain, intents) plus the outcome work (SettlementOnChain.onOutcome of every batch, timed where
 * the sender calls it), i.e. what the gateway spends beyond the chain's mining. (Blocks are not a
 * clock here: anvil mines a block per transaction as well as one a second.)
 *
 * In process: a test gateway (APP_ENV=test, its database as the tests make it), the chain sender,
 * one anvil: what is measured is the chain path, which production would run against a real node.
 * `--quick` (N=2, a dealing date of 10) is the smoke run.
 */
import 'reflect-metadata';
import { ChainTransaction } from '../src/modules/chain/chain-transaction.entity';
import { Order } from '../src/modules/order/order.entity';
import { QUICK } from './production-env';
import { timeCalls } from './timed-calls';
import { startTestGateway } from '../test/support/gateway';
import { aOneStepOrder } from '../test/support/one-step.factories';
import { aDealingDateNav, anInvestor } from '../test/support/factories';
import { randomWallet, testChains } from '../test/support/chain';
import { aChainMarket, aWhitelistedWallet, finalOrder, opsCall } from '../test/support/chain.factories';
import { runScript } from './run-script';
import { bindAllModules, WITH_MODULES } from './compliance-modules';

const N = Number(process.env.BENCH_ORDERS ?? (QUICK ? 2 : 20));
const D = Number(process.env.BENCH_DEALING_ORDERS ?? (QUICK ? 10 : 1000));
const CONFIRMATIONS = Number(process.env.BENCH_CONFIRMATIONS ?? 2);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))];
};
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

async function main() {
  const gw = await startTestGateway({ chains: await testChains({ confirmations: CONFIRMATIONS }) });
  try {
    let t = Date.now();
    const m = await aChainMarket(gw);
    const deployMs = Date.now() - t;
    await bindAllModules(gw);
    t = Date.now();
    const address = randomWallet();
    await aWhitelistedWallet(gw, m.investor.id, address);
    const whitelistMs = Date.now() - t;
    const settle = (id: string) => opsCall(gw, `mutation($id: ID!) { settleOneStepOrder(orderId: $id) { status } }`, { id });

    const sequential: number[] = [];
    for (let i = 0; i < N; i++) {
      const order = await aOneStepOrder(gw, m, { amount: '1000', stage: 'accepted', chainId: '31337' });
      const start = Date.now();
      await settle(order.id);
      const done = await finalOrder(gw, order.id);
      if (done.status !== 'settled') throw new Error(`order ${order.id} ${done.status}: ${done.failureReason}`);
      sequential.push(Date.now() - start);
    }

    const batch = [];
    for (let i = 0; i < N; i++) batch.push(await aOneStepOrder(gw, m, { amount: '1000', stage: 'accepted', chainId: '31337' }));
    const start = Date.now();
    await Promise.all(batch.map((o) => settle(o.id)));
    await Promise.all(batch.map((o) => finalOrder(gw, o.id, 300_000)));
    const batchMs = Date.now() - start;

    const redemptions = [];
    for (let i = 0; i < Math.min(N, 5); i++)
      redemptions.push(await aOneStepOrder(gw, m, { type: 'redeem', tokenCount: '10', stage: 'accepted', chainId: '31337' }));
    for (const r of redemptions) {
      await settle(r.id);
      await finalOrder(gw, r.id);
    }

    // A dealing date of D orders in batches (five investors' wallets), against the single mints above.
    const dealingOrders = [];
    const holders = [m.investor];
    for (let i = 1; i < 5; i++) {
      const inv = await anInvestor(gw.em(), m.distributor, { grants: [m.shareClass], walletChain: null });
      await aWhitelistedWallet(gw, inv.id, randomWallet());
      holders.push(inv);
    }
    for (let i = 0; i < D; i++)
      dealingOrders.push(await aOneStepOrder(gw, { ...m, investor: holders[i % holders.length] }, { amount: '100', stage: 'accepted', chainId: '31337' }));
    const date = dealingOrders[0].dealingDate!;
    // The date's NAV, struck now (the market's class deals every day, so the date is today).
    await aDealingDateNav(gw.em(), m.shareClass, '1.25', date, gw.clock.now());
    const headBefore = await gw.gateway.services.chain!.writable('31337').client.getBlockNumber();
    // The outcome work of each batch, timed where the sender calls it.
    const outcomeMs = timeCalls(gw.gateway.services.settlementOnChain!, 'onOutcome', (_em, tx) => !tx.correlation);
    const dealingStart = Date.now();
    const run = await opsCall(
      gw,
      `mutation($sc: ID!, $d: String!) { settleDealingDate(shareClassId: $sc, dealingDate: $d) { failed { orderId } transactions { id } } }`,
      { sc: m.shareClass.id, d: date },
    );
    const callMs = Date.now() - dealingStart;
    if (run.errors) throw new Error(JSON.stringify(run.errors));
    // One count a second (not a poll per order: 1,000 pollers would be the bench's own load).
    const ids = dealingOrders.map((o) => o.id);
    while ((await gw.em().count(Order, { id: { $in: ids }, status: { $in: ['settled', 'failed'] } })) < D) await new Promise((r) => setTimeout(r, 1000));
    const dealingMs = Date.now() - dealingStart;
    const blocksWaited = Number((await gw.gateway.services.chain!.writable('31337').client.getBlockNumber()) - headBefore);
    const outcomesMs = outcomeMs.reduce((a, b) => a + b, 0);
    const txs = await gw.em().find(ChainTransaction, {});
    const gas = (purpose: string) => txs.filter((x) => x.purpose === purpose && x.gasUsed).map((x) => Number(x.gasUsed));
    const deployGas = gas('deploy').reduce((a, b) => a + b, 0);
    const mints = gas('settlement.mint');
    const burns = gas('settlement.burn');
    const batches = gas('settlement.batchMint');
    const batchGasPerOrder = batches.reduce((a, b) => a + b, 0) / D;
    const gatewayMs = callMs + outcomesMs;
    const whitelistGas = ['wallet.identity', 'wallet.claim', 'wallet.register'].map((p) => gas(p).reduce((a, b) => a + b, 0));
    const lines = [
      `Settlement on the embedded chain (anvil, 1-second blocks, ${CONFIRMATIONS} confirmations), ${N} orders, ${WITH_MODULES ? 'all four compliance modules bound' : 'no compliance module'}`,
      `  chain setup + one token suite (deployToken): ${deployMs} ms, ${deployGas.toLocaleString('en')} gas in ${gas('deploy').length} transactions`,
      `  whitelist one wallet (identity, claim, registration): ${whitelistMs} ms, gas ${whitelistGas.map((g) => g.toLocaleString('en')).join(' + ')}`,
      `  settle one order at a time: p50 ${pct(sequential, 0.5)} ms, p95 ${pct(sequential, 0.95)} ms, max ${Math.max(...sequential)} ms`,
      `  settle ${N} orders at once: ${batchMs} ms (${((N * 1000) / batchMs).toFixed(1)} orders/s)`,
      `  gas per mint: mean ${Math.round(mean(mints)).toLocaleString('en')} (first ${mints[0]?.toLocaleString('en')}, min ${Math.min(...mints).toLocaleString('en')}, max ${Math.max(...mints).toLocaleString('en')})`,
      `  gas per burn: mean ${Math.round(mean(burns)).toLocaleString('en')} (min ${Math.min(...burns).toLocaleString('en')}, max ${Math.max(...burns).toLocaleString('en')})`,
      `Dealing date of ${D} orders (settleDealingDate, batchMint):`,
      `  settleDealingDate answered in ${callMs} ms; all ${D} settled after ${dealingMs} ms (${blocksWaited} blocks mined meanwhile)`,
      `  outcomes written in ${outcomesMs} ms over ${outcomeMs.length} batches (max ${Math.max(0, ...outcomeMs)} ms a batch)`,
      `  gateway time beyond the chain's mining (the mutation + the outcomes): ${gatewayMs} ms, ${((gatewayMs * 1000) / D).toFixed(0)} ms per 1,000 orders`,
      `  ${batches.length} batch transactions (${((batches.length * 1000) / D).toFixed(1)} per 1,000 orders; single mints: 1,000 per 1,000), ${Math.round(batchGasPerOrder).toLocaleString('en')} gas per order (single mint: mean ${Math.round(mean(mints)).toLocaleString('en')})`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await gw.close();
  }
}

runScript(main);
