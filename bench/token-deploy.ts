/**
 * Token deployment on the embedded chain: the transactions and gas of the chain's one-time set-up,
 * then of each ERC-3643 suite the gateway deploys (`deployToken`, one share class each), over real
 * T-REX 4.1.6 contracts on anvil. Counted from the gateway's own intents (purpose `deploy`), so
 * what is measured is what the gateway sends.
 *
 *   npm run bench:token-deploy                     (N=10 tokens)
 *   BENCH_TOKENS=50 DATABASE_URL=postgres://… npm run bench:token-deploy
 *
 * In process: a test gateway (APP_ENV=test), the chain sender, one anvil. `--quick` (N=2) is the
 * smoke run.
 */
import 'reflect-metadata';
import { ChainTransaction } from '../src/modules/chain/chain-transaction.entity';
import { QUICK } from './production-env';
import { startTestGateway } from '../test/support/gateway';
import { aShareClass } from '../test/support/factories';
import { testChains } from '../test/support/chain';
import { opsCall } from '../test/support/chain.factories';
import { runScript } from './run-script';

const N = Number(process.env.BENCH_TOKENS ?? (QUICK ? 2 : 10));
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const fmt = (n: number) => Math.round(n).toLocaleString('en');

async function main() {
  const gw = await startTestGateway({ chains: await testChains() });
  try {
    const seen = new Set<string>();
    /** The deployment intents written since the last call: their count and gas. */
    const sinceLast = async () => {
      const rows = (await gw.em().find(ChainTransaction, { purpose: 'deploy' })).filter((t) => !seen.has(t.id));
      for (const r of rows) seen.add(r.id);
      return { txs: rows.length, gas: rows.reduce((a, r) => a + Number(r.gasUsed ?? 0), 0) };
    };
    let t = Date.now();
    await gw.gateway.services.chain!.setup('31337');
    const setup = { ...(await sinceLast()), ms: Date.now() - t };
    const perToken: { txs: number; gas: number; ms: number }[] = [];
    for (let i = 0; i < N; i++) {
      const shareClass = await aShareClass(gw.em(), { chainId: '1' });
      t = Date.now();
      const r = await opsCall(
        gw,
        `mutation($sc: ID!, $s: String!) { deployToken(input: { shareClassId: $sc, chainId: "31337", name: "Bench Fund", symbol: $s, decimals: 6, isPrimary: true }) { contractAddress } }`,
        { sc: shareClass.id, s: `BF${i}` },
      );
      if (r.errors) throw new Error(JSON.stringify(r.errors));
      perToken.push({ ...(await sinceLast()), ms: Date.now() - t });
    }
    const lines = [
      `Token deployment on the embedded chain (anvil, T-REX 4.1.6), ${N} tokens`,
      `  chain set-up (once): ${setup.txs} transactions, ${fmt(setup.gas)} gas, ${setup.ms} ms`,
      `  per token: ${mean(perToken.map((p) => p.txs)).toFixed(1)} transactions, ${fmt(mean(perToken.map((p) => p.gas)))} gas (min ${fmt(Math.min(...perToken.map((p) => p.gas)))}, max ${fmt(Math.max(...perToken.map((p) => p.gas)))}), ${fmt(mean(perToken.map((p) => p.ms)))} ms`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await gw.close();
  }
}

runScript(main);
