import { LockMode } from '@mikro-orm/core';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../common/clock';
import type { TokenLedger } from '../../ledger/token-ledger';
import { type Investor, InvestorWallet, WalletStatus } from './investor.entity';
import { kycHolds } from './kyc';

/** How many due claims one revocation pass takes. */
const REVOKE_BATCH = 100;
/** How often the expiry job looks for claims whose KYC expired (a minute: KYC expires in days). */
export const DEFAULT_KYC_EXPIRY_MS = 60_000;

const sameInstant = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);

/**
 * The KYC claim on a wallet's identity follows the investor's KYC. The gateway's claim issuer
 * signs a claim whose data carries the investor's KYC expiry; when the KYC expires (the clock
 * passes `kycExpiresAt`) or ops withdraw it (an expiry set at or before now), the claim issuer
 * revokes it on chain, so the identity registry's `isVerified` (which asks the issuer's
 * `isClaimValid`) answers false and a mint or transfer to the wallet reverts whoever sends it;
 * when ops renew the KYC (a later expiry), a fresh claim is issued and the wallet is verified again.
 *
 * Exactly once: each intent is written in the transaction that records the claim's new state on
 * the wallet (`kycClaim*` columns), under a row lock (`skip locked` for the job), so a restart or a
 * second instance neither repeats a revocation (T-REX refuses a second: "already revoked") nor skips one.
 *
 * Expiry is found by a job on the gateway's clock rather than when a mint needs it: the gateway
 * already refuses its own placements and mints at expiry (eligibility.ts), and the claim is
 * there for what the gateway does not see, a holder's transfer on chain to the wallet, which
 * must revert from the expiry on, not from the next order. A minute's lag is the job's interval.
 */
export class KycClaims {
  constructor(
    private readonly chain: TokenLedger,
    private readonly clock: Clock,
  ) {}

  /** Issues the claim (whitelisting's step, or a renewal) carrying the investor's expiry now, in the caller's unit of work. */
  async issue(em: EntityManager, wallet: InvestorWallet, investor: Investor, purpose: string): Promise<void> {
    wallet.kycClaimIssue += 1;
    wallet.kycClaimIssuedAt = this.clock.now();
    wallet.kycClaimExpiresAt = investor.kycExpiresAt;
    wallet.kycClaimRevokedAt = null;
    const meta = { chainId: wallet.chainId, purpose, walletId: wallet.id };
    await this.chain.intendKycClaim(em, meta, wallet.onchainIdentity!, { expiresAt: investor.kycExpiresAt, issue: wallet.kycClaimIssue });
  }

  /**
   * After ops set an investor's KYC, in their transaction (which holds the investor's row): each
   * wallet's claim made to match. KYC that holds and a claim revoked or carrying another expiry:
   * a fresh claim; KYC expired or withdrawn and a claim standing: its revocation.
   */
  async follow(em: EntityManager, investor: Investor): Promise<void> {
    const now = this.clock.now();
    const wallets = await em.find(
      InvestorWallet,
      { investor, status: { $ne: WalletStatus.removed }, onchainIdentity: { $ne: null }, kycClaimIssuedAt: { $ne: null } },
      { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { id: 'asc' } },
    );
    for (const wallet of wallets) {
      if (!this.chain.writes(wallet.chainId)) continue;
      if (kycHolds(investor.kycExpiresAt, now)) {
        if (wallet.kycClaimRevokedAt || !sameInstant(wallet.kycClaimExpiresAt, investor.kycExpiresAt))
          await this.issue(em, wallet, investor, 'wallet.kycClaim');
      } else if (!wallet.kycClaimRevokedAt) await this.revoke(em, wallet);
    }
  }

  /** The job: every standing claim whose expiry the clock passed is revoked, each exactly once. Returns how many. */
  async revokeExpired(orm: MikroORM): Promise<number> {
    let revoked = 0;
    for (;;) {
      const n = await orm.em.fork().transactional((em) => this.revokeSome(em));
      revoked += n;
      if (n < REVOKE_BATCH) break;
    }
    if (revoked) this.chain.wake();
    return revoked;
  }

  /** Wakes the sender after a commit that wrote claim intents. */
  wake(): void {
    this.chain.wake();
  }

  private async revokeSome(em: EntityManager): Promise<number> {
    const due = await em.find(
      InvestorWallet,
      { kycClaimIssuedAt: { $ne: null }, kycClaimRevokedAt: null, kycClaimExpiresAt: { $lte: this.clock.now() }, status: { $ne: WalletStatus.removed } },
      { orderBy: { kycClaimExpiresAt: 'asc', id: 'asc' }, limit: REVOKE_BATCH, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE },
    );
    const writable = due.filter((w) => w.onchainIdentity && this.chain.writes(w.chainId));
    for (const wallet of writable) await this.revoke(em, wallet);
    await em.flush();
    return writable.length;
  }

  private async revoke(em: EntityManager, wallet: InvestorWallet): Promise<void> {
    wallet.kycClaimRevokedAt = this.clock.now();
    await this.chain.intendKycRevocation(em, { chainId: wallet.chainId, purpose: 'wallet.kycRevoke', walletId: wallet.id }, wallet.onchainIdentity!);
  }
}
