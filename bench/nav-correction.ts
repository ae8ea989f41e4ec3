/**
 * A NAV correction over BENCH_ORDERS one-step subscriptions settled at the wrong NAV (default
 * 1,000; `--quick` 20) on the embedded chain: each holder subscribed 1,000 at 1.25 and holds the
 * 800 tokens minted then, in the register and on chain; ops correct the NAV to 1 (an error of
 * 2,500 bps, above the class's 100) and a second principal approves: each order is owed 200
 * tokens, minted to its wallet in batchMint intents (docs/approvals.md "Correcting a NAV").
 * The holders are set up in bulk (distribution-holders.ts), the settled orders by one statement.
 *
 *   BENCH_ORDERS=1000 DATABASE_URL=postgres://… npm run bench:nav-correction
 *
 * Gateway time is what the gateway spends beyond the chain's mining: the request and the approval
 * (the plan, the NAV, the compensation rows, the intents) plus the outcome work of every batch,
 * timed where the sender calls it, per 1,000 orders. Gas per order: the batchMint transactions'
 * gas over the orders.
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { ChainTransaction } from '../src/modules/chain/chain-transaction.entity';
import { CompensationStatus, NavCompensation } from '../src/modules/correction/nav-compensation.entity';
import { Nav } from '../src/modules/nav/nav.entity';
import { rawRows } from '../src/persistence/raw-query';
import { QUICK } from './production-env';
import { startTestGateway } from '../test/support/gateway';
import { testChains, workerChain } from '../test/support/chain';
import { aChainMarket, opsCall } from '../test/support/chain.factories';
import { approverToken } from '../test/support/approval.factories';
import { manyHolders } from './distribution-holders';
import { timeCalls } from './timed-calls';
import { runScript } from './run-script';

const N = Number(process.env.BENCH_ORDERS ?? (QUICK ? 20 : 1_000));
const DAY = 86_400_000;

async function main() {
  const gw = await startTestGateway({ chains: await testChains() });
  const { rpcUrl } = await workerChain();
  // The follower stays off: the openings are mints the gateway did not send (distribution.ts says why).
  await gw.gateway.chainFollower?.stop();
  try {
    const setupStart = Date.now();
    const m = await aChainMarket(gw);
    await manyHolders(gw, m, rpcUrl, N, '800', new Date(Date.now() - 40 * DAY));
    const nav = await gw.em().findOneOrFail(Nav, { shareClass: m.shareClass.id }, { orderBy: { publishedAt: 'desc' } });
    // One settled subscription per holder: 1,000 at the NAV 1.25, 800 tokens to its wallet.
    await rawRows(
      gw.em(),
      `insert into "order" (id, flow, surface, type, status, distributor_id, investor_id, share_class_id, currency, amount, fees_sub_bps, amount_fees_total,
          amount_payable, nav, nav_published_at, settlement_nav, settlement_tokens, settlement_amount, chain_id, delivery_wallet, wallet_address,
          created_at, updated_at, created_by, updated_by, event_seq)
       select 'ord_' || substr(md5(? || w.investor_id), 1, 24), 'one_step', 'O', 'subscription', 'settled', i.distributor_id, w.investor_id, ?, ?, 1000, 0, 0,
          1000, 1.25, ?, 1.25, 800, 1000, '31337', lower(w.address), lower(w.address), now(), now(), 'bench', 'bench', 3
         from investor_wallet w join investor i on i.id = w.investor_id
        where w.chain_id = '31337' and i.distributor_id = ?`,
      [randomBytes(8).toString('hex'), m.shareClass.id, m.shareClass.currency, nav.publishedAt, m.distributor.id],
    );
    const setupMs = Date.now() - setupStart;

    // The outcome work of each batch (NavCorrections.onOutcome, called by the sender), timed where it is called.
    const outcomeMs = timeCalls(gw.gateway.services.navCorrections, 'onOutcome');

    const previewStart = Date.now();
    const preview = await opsCall(gw, `query($id: ID!) { navCorrectionPreview(navId: $id, close: "1") { aboveTolerance compensations { action } } }`, {
      id: nav.id,
    });
    if (preview.errors) throw new Error(JSON.stringify(preview.errors));
    const previewMs = Date.now() - previewStart;
    const requestStart = Date.now();
    const requested = await opsCall(
      gw,
      `mutation($id: ID!) { requestNavCorrection(navId: $id, close: "1", reason: "bench: struck with a stale price") { id } }`,
      {
        id: nav.id,
      },
    );
    if (requested.errors) throw new Error(JSON.stringify(requested.errors));
    const requestMs = Date.now() - requestStart;
    const approveStart = Date.now();
    const approved = await gw.graphql(
      `mutation($id: ID!) { approveRequest(id: $id, reason: "bench") { status result } }`,
      { id: requested.data.requestNavCorrection.id },
      { token: await approverToken(gw) },
    );
    if (approved.body.errors) throw new Error(JSON.stringify(approved.body.errors));
    const approveMs = Date.now() - approveStart;
    // One read a second until every mint is final.
    const requestId = String(requested.data.requestNavCorrection.id);
    for (;;) {
      const open = await gw.em().fork().count(NavCompensation, { requestId, status: CompensationStatus.sending });
      if (!open) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    const doneMs = Date.now() - approveStart;
    const booked = await gw.em().fork().count(NavCompensation, { requestId, status: CompensationStatus.booked });
    const outcomesMs = outcomeMs.reduce((a, b) => a + b, 0);
    const mints = (await gw.em().fork().find(ChainTransaction, { purpose: 'correction.batchMint' })).filter((x) => x.gasUsed);
    const gas = mints.reduce((a, x) => a + Number(x.gasUsed), 0);
    const gatewayMs = requestMs + approveMs + outcomesMs;
    const lines = [
      `NAV correction over ${N.toLocaleString('en')} settled one-step orders on the embedded chain (anvil, 1-second blocks)`,
      `  setup (holders registered and minted in batches, the settled orders): ${setupMs} ms`,
      `  navCorrectionPreview: ${previewMs} ms; requestNavCorrection: ${requestMs} ms; approveRequest: ${approveMs} ms`,
      `  ${booked} compensations booked after ${doneMs} ms; outcomes written in ${outcomesMs} ms over ${outcomeMs.length} batches`,
      `  gateway time (request + approval + outcomes): ${gatewayMs} ms, ${((gatewayMs * 1000) / N).toFixed(0)} ms per 1,000 orders`,
      `  ${mints.length} batchMint transactions, ${gas.toLocaleString('en')} gas, ${Math.round(gas / N).toLocaleString('en')} gas per order`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await gw.close();
  }
}

runScript(main);
