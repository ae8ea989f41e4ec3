import type { EntityManager } from '@mikro-orm/postgresql';
import { Holding } from '../holding';
import { InvestorWallet, type WalletOnChain, WalletStatus } from '../investor';
import { Token } from '../token';
import type { ChainService } from '../chain';
import type { TokenLedger } from '../../ledger/token-ledger';
import { toUnits } from '../../common/units';

/**
 * The demo's first start on the embedded chain: its share classes get real ERC-3643 suites, its
 * whitelisted wallet an identity registered on chain, and the holdings it was seeded with are
 * minted to that wallet, so register and chain agree from the start. Later starts find it done.
 */
export async function bringDemoOnChain(
  em: EntityManager,
  chain: ChainService,
  ledger: TokenLedger,
  wallets: WalletOnChain,
  chainId: string,
): Promise<{ tokens: number; wallets: number }> {
  const tokens = await em.find(Token, { chainId, identityRegistry: null }, { orderBy: { id: 'asc' } });
  for (const token of tokens) {
    const suite = await chain.deploySuite(chainId, token.id, token);
    em.assign(token, { contractAddress: suite.contractAddress, identityRegistry: suite.identityRegistry, identityStorage: suite.identityStorage });
    await em.flush();
  }
  const demoWallets = await em.find(InvestorWallet, { chainId, status: WalletStatus.whitelisted, onchainIdentity: null });
  if (demoWallets.length) await wallets.prepare(chainId);
  for (const wallet of demoWallets) {
    await em.transactional(async (tem) => {
      const w = await tem.findOneOrFail(InvestorWallet, { id: wallet.id });
      await wallets.whitelist(tem, w);
    });
  }
  for (const wallet of demoWallets) {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const w = await em.fork().findOneOrFail(InvestorWallet, { id: wallet.id });
      if (w.status === WalletStatus.whitelisted) break;
      if (w.chainError || Date.now() > deadline)
        throw new Error(`demo wallet ${w.address} was not whitelisted on chain ${chainId}: ${w.chainError ?? 'timed out'}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    for (const holding of await em.find(Holding, { investor: wallet.investor.id }, { populate: ['shareClass'] })) {
      const token = await em.findOne(Token, { shareClass: holding.shareClass.id, chainId, isPrimary: true });
      if (!token || holding.balance === '0') continue;
      const mint = { op: 'mint', token: token.contractAddress, wallet: wallet.address, units: toUnits(holding.balance, token.decimals) } as const;
      await ledger.executeNow(chainId, 'deploy.mint', mint, 'mint of the demo holding');
    }
  }
  return { tokens: tokens.length, wallets: demoWallets.length };
}
