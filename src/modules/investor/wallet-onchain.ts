import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../common/clock';
import { requireDuty } from '../../access/duties';
import { currentPrincipal } from '../../common/request-scope';
import { Investor, InvestorWallet, WalletStatus } from './investor.entity';
import { Token } from '../token';
import type { LedgerIntent, LedgerOutcome, TokenLedger } from '../../ledger/token-ledger';

/** A handler that says whether the intent was its own (WalletFreezes.onOutcome, wallet-freeze.ts). */
type LedgerOutcomeHandler<R> = (em: EntityManager, tx: LedgerIntent, outcome: LedgerOutcome) => Promise<R>;
import { RECOVERY_PURPOSES, WalletRecovery } from './wallet-recovery';
import { FREEZE_PURPOSE, UNFREEZE_PURPOSE } from './wallet-freeze.entity';
import { KycClaims } from './kyc-claim';
import { registryCountry, WalletCountries } from './wallet-country';

/**
 * A wallet's whitelist on chain, as steps of intents each started by the previous one's outcome:
 * 1. `wallet.identity`: the investor's ONCHAINID identity (a proxy of the gateway's identity
 *    implementation; custodial: the agent key is its management key);
 * 2. `wallet.claim`: the KYC claim, signed by the gateway's claim issuer, added to the identity
 *    (it carries the investor's KYC expiry; kyc-claim.ts revokes and renews it as the KYC changes:
 *    `wallet.kycRevoke`, `wallet.kycClaim`);
 * 3. `wallet.register`: `registerIdentity` on the identity registry of the chain's tokens (one per
 *    registry storage: the gateway's tokens share one), with the investor's country (ISO 3166-1
 *    numeric) — the wallet is `whitelisted` once every registration is confirmed, and reads
 *    `pending` until then.
 * Removal freezes the wallet on every token (`wallet.freeze`), then deletes its identity from the
 * registries (`wallet.delete`): T-REX checks only the receiver, so deletion alone lets it send.
 */
export class WalletOnChain {
  private readonly recovery: WalletRecovery;
  /** The KYC claim on each wallet's identity, following the investor's KYC (kyc-claim.ts). */
  readonly kycClaims: KycClaims;
  /** The country each wallet's registration carries, and its backfill (wallet-country.ts). */
  readonly countries: WalletCountries;

  constructor(
    private readonly chain: TokenLedger,
    private readonly clock: Clock,
    /** An operator's freeze of a wallet on one class's token, and its approved unfreeze (wallet-freeze.ts): their outcomes come here too. */
    private readonly freezes: { onOutcome: LedgerOutcomeHandler<boolean> } | null = null,
  ) {
    this.recovery = new WalletRecovery(chain, clock);
    this.kycClaims = new KycClaims(chain, clock);
    this.countries = new WalletCountries(chain, async (em, chainId) => registries(await this.tokensOn(em, chainId)));
    // Every `wallet.*` intent (whitelist steps, removal, recovery) ends here.
    chain.onOutcome('wallet', (em, tx, outcome) => this.onOutcome(em, tx, outcome));
  }

  writes(chainId: string): boolean {
    return this.chain.writes(chainId);
  }

  /**
   * The chain's setup (claim issuer, identity implementation), deployed on first use: called
   * before the caller's transaction, as it waits for the chain and writes with its own connection.
   */
  async prepare(chainId: string): Promise<void> {
    await this.chain.reachable(chainId);
    await this.chain.prepareIdentities(chainId);
  }

  /** A 503 while the chain does not answer (nothing written for a chain that is away). */
  reachable(chainId: string): Promise<void> {
    return this.chain.reachable(chainId);
  }

  /**
   * Starts whitelisting a (flushed) wallet, after `prepare`; it stays `pending` until its
   * registrations are confirmed. Segregation of duties (src/access/duties.ts): the principal that
   * added the wallet and the one whitelisting it must be two parties (403 otherwise, nothing queued);
   * the intent's `requested_by` records who whitelisted it.
   */
  async whitelist(em: EntityManager, wallet: InvestorWallet): Promise<void> {
    requireDuty('walletWhitelisting', [wallet.createdByPrincipal, currentPrincipal()]);
    wallet.status = WalletStatus.pending;
    wallet.chainError = undefined;
    if (wallet.onchainIdentity) return this.addClaim(em, wallet);
    await this.chain.intendIdentity(em, { chainId: wallet.chainId, purpose: 'wallet.identity', walletId: wallet.id });
  }

  /** Whether a whitelisting of this wallet is under way (an intent not yet final): whitelisting twice is harmless. */
  async whitelisting(em: EntityManager, wallet: InvestorWallet): Promise<boolean> {
    return (await this.chain.openIntents(em, wallet.id, ['wallet.identity', 'wallet.claim', 'wallet.register'])) > 0;
  }

  /** Freezes the wallet on every token of its chain, then deletes its identity from their registries. */
  remove(em: EntityManager, wallet: InvestorWallet, tokens: Token[]): void {
    const meta = (purpose: string) => ({ chainId: wallet.chainId, purpose, walletId: wallet.id });
    for (const token of tokens)
      this.chain.intend(em, meta('wallet.freeze'), { op: 'setFrozen', token: token.contractAddress, wallet: wallet.address, frozen: true });
    for (const token of registries(tokens))
      this.chain.intend(em, meta('wallet.delete'), { op: 'deleteIdentity', registry: token.identityRegistry!, wallet: wallet.address });
  }

  /** Tokens of a chain the gateway settles on: those whose identity registry it knows. */
  tokensOn(em: EntityManager, chainId: string): Promise<Token[]> {
    return em.find(Token, { chainId, identityRegistry: { $ne: null } }, { orderBy: { id: 'asc' } });
  }

  private async addClaim(em: EntityManager, wallet: InvestorWallet): Promise<void> {
    await this.kycClaims.issue(em, wallet, await em.findOneOrFail(Investor, wallet.investor.id), 'wallet.claim');
  }

  private async register(em: EntityManager, wallet: InvestorWallet): Promise<void> {
    const tokens = registries(await this.tokensOn(em, wallet.chainId));
    if (!tokens.length) return this.whitelisted(wallet);
    // The registry stores the investor's country (ISO 3166-1 numeric), which a token's country rules read; 0 where none is known.
    const country = registryCountry(await em.findOneOrFail(Investor, wallet.investor.id));
    wallet.registeredCountry = country;
    for (const token of tokens) {
      this.chain.intend(
        em,
        { chainId: wallet.chainId, purpose: 'wallet.register', walletId: wallet.id },
        { op: 'registerIdentity', registry: token.identityRegistry!, wallet: wallet.address, identity: wallet.onchainIdentity!, country },
      );
    }
  }

  private whitelisted(wallet: InvestorWallet): void {
    if (wallet.status !== WalletStatus.pending) return;
    wallet.status = WalletStatus.whitelisted;
    wallet.whitelistedAt = this.clock.now();
  }

  /** Starts recovering a lost wallet's tokens into the investor's new one (wallet-recovery.ts). */
  recover(em: EntityManager, fresh: InvestorWallet): void {
    this.recovery.start(em, fresh);
  }

  /** The tokens of the chain of which a (lost) wallet holds some, with how many units, read now. */
  async holdingTokens(em: EntityManager, chainId: string, wallet: string): Promise<{ token: Token; units: bigint }[]> {
    return this.recovery.holdingTokens(await this.tokensOn(em, chainId), wallet);
  }

  /** The next step when a wallet's intent reached its depth; a failure is shown on the wallet. */
  async onOutcome(em: EntityManager, tx: LedgerIntent, outcome: LedgerOutcome): Promise<void> {
    const wallet = tx.walletId ? await em.findOne(InvestorWallet, { id: tx.walletId }) : null;
    if (!wallet) return;
    if ((RECOVERY_PURPOSES as readonly string[]).includes(tx.purpose)) {
      await this.recovery.onOutcome(em, tx, outcome, wallet, await this.tokensOn(em, wallet.chainId));
      await em.flush();
      return;
    }
    if ((tx.purpose === FREEZE_PURPOSE || tx.purpose === UNFREEZE_PURPOSE) && this.freezes && (await this.freezes.onOutcome(em, tx, outcome))) return;
    if (!outcome.ok) {
      wallet.chainError = `${tx.purpose}: ${outcome.reason}`;
      await em.flush();
      return;
    }
    if (tx.purpose === 'wallet.identity') {
      wallet.onchainIdentity = outcome.contractAddress!;
      await this.addClaim(em, wallet);
    } else if (tx.purpose === 'wallet.claim') {
      await this.register(em, wallet);
    } else if (tx.purpose === 'wallet.register') {
      const open = await this.chain.openIntents(em, wallet.id, ['wallet.register'], tx.id);
      if (!open) this.whitelisted(wallet);
    }
    await em.flush();
  }
}

/** One token per identity registry storage: registering through one registers for all that share it. */
function registries(tokens: Token[]): Token[] {
  const seen = new Set<string>();
  return tokens.filter((t) => {
    const key = (t.identityStorage ?? t.identityRegistry!).toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
