import type { MikroORM } from '@mikro-orm/postgresql';
import { WakeLoop } from './events/wake-loop';
import { DEFAULT_COUNTRY_BACKFILL_MS, DEFAULT_KYC_EXPIRY_MS, type WalletOnChain } from './modules/investor';
import { DEFAULT_LOCK_UP_RELEASE_MS, type LockUpOnChain } from './modules/settlement/lock-up-onchain';

/**
 * The jobs the gateway's clock runs on the chains it writes to, started beside the chain sender
 * and stopped with the other loops at `close`: the lock-up release (lock-up-onchain.ts), the KYC
 * claim expiry (src/modules/investor/kyc-claim.ts) and the wallet country backfill
 * (wallet-country.ts). Each is a pass on a timer (and at start), one pass at a time.
 */
export class ChainSchedules {
  private readonly jobs: WakeLoop[];

  constructor(orm: MikroORM, on: { lockUp: LockUpOnChain; wallets: WalletOnChain }, every: { lockUpReleaseMs?: number; kycExpiryMs?: number }) {
    const job = (name: string, pass: () => Promise<unknown>, ms: number) => new WakeLoop(name, async () => (await pass(), false), ms);
    this.jobs = [
      job('lock-up release', () => on.lockUp.releaseDue(orm), every.lockUpReleaseMs ?? DEFAULT_LOCK_UP_RELEASE_MS),
      job('KYC claim expiry', () => on.wallets.kycClaims.revokeExpired(orm), every.kycExpiryMs ?? DEFAULT_KYC_EXPIRY_MS),
      job('wallet country backfill', () => on.wallets.countries.backfill(orm), DEFAULT_COUNTRY_BACKFILL_MS),
    ];
  }

  start(): void {
    for (const job of this.jobs) job.start();
  }

  async stop(): Promise<void> {
    await Promise.all(this.jobs.map((job) => job.stop()));
  }
}
