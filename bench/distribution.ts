/**
 * A reinvest distribution paid on the embedded chain: BENCH_HOLDERS holders (default 10,000;
 * `--quick` 20), each with one whitelisted wallet and 1,000 tokens in the register and on chain
 * since the period began; ops declare a month at a rate per token per day and pay it with
 * batchMint through the chain's intents (docs/income.md). The holders are set up in bulk
 * (distribution-holders.ts: one identity shared by every wallet, registered and minted in batches).
 *
 *   BENCH_HOLDERS=1000 DATABASE_URL=postgres://… npm run bench:distribution
 *
 * Gateway time is what the gateway spends beyond the chain's mining: the payDistribution call
 * (entitlements to intents) plus the outcome work of every batch, timed where the sender calls
 * it, per 1,000 holders. Gas per holder: the batchMint transactions' gas over the holders.
 */
import 'reflect-metadata';
import { ChainTransaction } from '../src/modules/chain/chain-transaction.entity';
import { DISTRIBUTION_MINT } from '../src/modules/distribution/distribution-onchain';
import { Distribution, DistributionEntitlement } from '../src/modules/distribution/distribution.entity';
import { QUICK } from './production-env';
import { timeCalls } from './timed-calls';
import { startTestGateway } from '../test/support/gateway';
import { aNav } from '../test/support/factories';
import { testChains, workerChain } from '../test/support/chain';
import { aChainMarket, opsCall } from '../test/support/chain.factories';
import { asDeclarer } from '../test/support/income.factories';
import { manyHolders } from './distribution-holders';
import { mintGasPerRow } from './mint-gas';
import { runScript } from './run-script';
import { bindAllModules, WITH_MODULES } from './compliance-modules';
import { ChainComplianceModule } from '../src/modules/chain/compliance-module.entity';

const N = Number(process.env.BENCH_HOLDERS ?? (QUICK ? 20 : 10_000));
const DAY = 86_400_000;
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function main() {
  const gw = await startTestGateway({ chains: await testChains() });
  const { rpcUrl } = await workerChain();
  // The follower stays off: the openings are mints the gateway did not send, which it would record
  // one by one (a movement and an event each); the payment's own mints it skips anyway.
  await gw.gateway.chainFollower?.stop();
  try {
    const setupStart = Date.now();
    const m = await aChainMarket(gw);
    await bindAllModules(gw);
    const opened = new Date(Date.now() - 40 * DAY);
    await manyHolders(gw, m, rpcUrl, N, '1000', opened);
    const setupMs = Date.now() - setupStart;
    const periodTo = utcDay(Date.now() - 2 * DAY);
    const periodFrom = utcDay(Date.now() - 31 * DAY);
    const payDate = utcDay(Date.now() - DAY);
    await aNav(gw.em(), m.shareClass, '2', new Date(`${payDate}T10:00:00Z`));
    const policy = await opsCall(
      gw,
      `mutation($sc: ID!) { setDistributionPolicy(shareClassId: $sc, treatment: distributing, payment: reinvest) { treatment } }`,
      {
        sc: m.shareClass.id,
      },
    );
    if (policy.errors) throw new Error(JSON.stringify(policy.errors));
    const declareStart = Date.now();
    // Declared by a second operator: reinvestment needs two parties (docs/approvals.md), test-ops pays.
    const declared = await asDeclarer(gw, `mutation($i: DeclareDistributionInput!) { declareDistribution(input: $i) { id } }`, {
      i: { shareClassId: m.shareClass.id, periodFrom, periodTo, payDate, ratePerTokenPerDay: '0.0001' },
    });
    if (declared.errors) throw new Error(JSON.stringify(declared.errors));
    const declareMs = Date.now() - declareStart;
    const id = declared.data.declareDistribution.id as string;

    // The outcome work of each batch (the service's minted, called by the sender), timed where it is called.
    const outcomeMs = timeCalls(gw.gateway.services.distribution, 'minted');
    const payStart = Date.now();
    const paid = await opsCall(gw, `mutation($id: ID!) { payDistribution(id: $id) { status } }`, { id });
    if (paid.errors) throw new Error(JSON.stringify(paid.errors));
    const callMs = Date.now() - payStart;
    // One read a second until every mint is final.
    while ((await gw.em().fork().findOneOrFail(Distribution, { id })).status !== 'paid') await new Promise((r) => setTimeout(r, 1000));
    const payMs = Date.now() - payStart;
    const outcomesMs = outcomeMs.reduce((a, b) => a + b, 0);
    const mints = (await gw.em().find(ChainTransaction, { purpose: DISTRIBUTION_MINT }, { orderBy: { id: 'asc' } })).filter((x) => x.gasUsed && x.hash);
    const batches = mints.map((x) => Number(x.gasUsed));
    const gas = batches.reduce((a, b) => a + b, 0);
    const firstRows = (await gw.em().count(DistributionEntitlement, { transactionId: String(mints[0].id) })) || 1;
    const moduleNames = Object.fromEntries((await gw.em().find(ChainComplianceModule, {})).map((r) => [r.address, r.name.replace(/Module$/, '')]));
    const perRow = await mintGasPerRow(rpcUrl, mints[0].hash!, firstRows, moduleNames);
    const gatewayMs = callMs + outcomesMs;
    const lines = [
      `Reinvest distribution to ${N.toLocaleString('en')} holders on the embedded chain (anvil, 1-second blocks), ${WITH_MODULES ? 'all four compliance modules bound' : 'no compliance module'}`,
      `  setup (wallets registered on chain in batches, the register, opening mints): ${setupMs} ms`,
      `  declareDistribution (entitlements from the daily closes of ${periodFrom}..${periodTo}): ${declareMs} ms`,
      `  payDistribution answered in ${callMs} ms; paid after ${payMs} ms; outcomes written in ${outcomesMs} ms over ${outcomeMs.length} batches`,
      `  gateway time (the mutation + the outcomes): ${gatewayMs} ms, ${((gatewayMs * 1000) / N).toFixed(0)} ms per 1,000 holders`,
      `  ${batches.length} batchMint transactions, ${gas.toLocaleString('en')} gas, ${Math.round(gas / N).toLocaleString('en')} gas per holder`,
      `  gas per row of the first batchMint (${firstRows} rows), from its call trace:`,
      ...Object.entries(perRow).map(([what, g]) => `    ${what}: ${g.toLocaleString('en')}`),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await gw.close();
  }
}

runScript(main);
