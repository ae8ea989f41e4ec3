import { parseUnits } from 'viem';
import { formatId } from '../src/common/ids';
import { runInScope } from '../src/common/request-scope';
import { TOKEN_ABI } from '../src/modules/chain/contracts';
import { bookOpening } from '../src/modules/holding/holding-ledger';
import { Holding } from '../src/modules/holding/holding.entity';
import { HoldingLot, LotSource } from '../src/modules/holding/holding-lot.entity';
import { HoldingMovement } from '../src/modules/holding/holding-movement.entity';
import { Investor, InvestorGrant, InvestorWallet, WalletStatus } from '../src/modules/investor/investor.entity';
import { rawRows } from '../src/persistence/raw-query';
import { hex, randomWallet } from '../test/support/chain';
import { aWhitelistedWallet, behindTheGateway, type aChainMarket } from '../test/support/chain.factories';
import { registerSharingIdentity } from '../test/support/income.factories';
import type { TestGateway } from '../test/support/gateway';

/*
 * The bench's holders, set up in bulk (a bench, not the product): whitelisting one wallet through
 * the gateway takes three transactions and seconds, so only the market's first investor goes that
 * way; its ONCHAINID then stands for every other wallet (registerSharingIdentity, as the income
 * tests do). The wallets are funded with `batchMint` from the agent key, behind the gateway's
 * back; investors, wallets and opening lots are inserted through the ORM in chunks.
 */

/** Rows per setup transaction: a registration costs ~50k gas and a mint ~60–110k, so 200 stay far under anvil's 30M block. */
const ROWS_PER_TX = 200;
/** Records per flush when inserting the register. */
const ROWS_PER_FLUSH = 1_000;

type Market = Awaited<ReturnType<typeof aChainMarket>>;

/** `n` holders of `tokens` each since `opened`, in the register and on chain (see the file comment); their wallets, the market's investor's first. */
export async function manyHolders(gw: TestGateway, m: Market, rpcUrl: string, n: number, tokens: string, opened: Date): Promise<string[]> {
  const first = await aWhitelistedWallet(gw, m.investor.id, randomWallet());
  await gw
    .em()
    .fork()
    .transactional((em) => bookOpening(em, { investorId: m.investor.id, shareClassId: m.shareClass.id, quantity: tokens, settledAt: opened, at: opened }));
  const others = [...Array(n - 1)].map(() => randomWallet());
  await insertHolders(gw, m, others, first.onchainIdentity!, tokens, opened);
  await registerSharingIdentity(gw, rpcUrl, m, others, hex(first.onchainIdentity), ROWS_PER_TX);
  const wallets = [hex(first.address), ...others];
  const amount = parseUnits(tokens, m.token.decimals);
  for (const rows of chunks(wallets, ROWS_PER_TX))
    await behindTheGateway(gw, rpcUrl, m.token.contractAddress, TOKEN_ABI, 'batchMint', [rows, rows.map(() => amount)]);
  return wallets;
}

/** Investors of the market's distributor, each granted the share class, with a whitelisted wallet and an opening lot. */
async function insertHolders(gw: TestGateway, m: Market, wallets: string[], identity: string, tokens: string, opened: Date): Promise<void> {
  const em = gw.em();
  const numbers = await rawRows<{ n: string }>(em, `select nextval('id_seq_in')::text as n from generate_series(1, ?)`, [wallets.length]);
  await runInScope({ actor: 'factory' }, async () => {
    for (const part of chunks(
      wallets.map((address, i) => ({ address, id: formatId('IN', numbers[i].n) })),
      ROWS_PER_FLUSH,
    )) {
      const fork = em.fork();
      for (const { address, id } of part) {
        const investor = fork.create(Investor, {
          id,
          distributor: m.distributor,
          externalInvestorId: `ext-${id}`,
          email: 'holder@example.com',
          countryCode: 'LU',
        });
        fork.create(InvestorGrant, { investor, shareClass: m.shareClass });
        fork.create(InvestorWallet, {
          investor,
          chainId: '31337',
          address,
          status: WalletStatus.whitelisted,
          whitelistedAt: opened,
          onchainIdentity: identity,
        });
        fork.create(Holding, { investor, shareClass: m.shareClass, balance: tokens });
        fork.create(HoldingLot, { investor, shareClass: m.shareClass, quantity: tokens, remaining: tokens, settledAt: opened, source: LotSource.opening });
        fork.create(HoldingMovement, { investor, shareClass: m.shareClass, change: tokens, balance: tokens, source: LotSource.opening, at: opened });
      }
      await fork.flush();
    }
  });
}

function chunks<T>(rows: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}
