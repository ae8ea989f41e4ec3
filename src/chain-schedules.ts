import type { MikroORM } from '@mikro-orm/postgresql';
import { CountryBackfillSchedule, KycExpirySchedule, type WalletOnChain } from './modules/investor';
import { LockUpSchedule, type LockUpOnChain } from './modules/settlement/lock-up-onchain';

/**
 * The jobs the gateway's clock runs on the chains it writes to, started beside the chain sender
 * and stopped with the other loops at `close`: the lock-up release (lock-up-onchain.ts) and the
 * KYC claim expiry (src/modules/investor/kyc-claim.ts), the wallet country backfill (wallet-country.ts).
 */
export class ChainSchedules {
  private readonly jobs: { start(): void; stop(): Promise<void> }[];

  constructor(orm: MikroORM, on: { lockUp: LockUpOnChain; wallets: WalletOnChain }, every: { lockUpReleaseMs?: number; kycExpiryMs?: number }) {
    this.jobs = [
      new LockUpSchedule(orm, on.lockUp, every.lockUpReleaseMs),
      new KycExpirySchedule(orm, on.wallets.kycClaims, every.kycExpiryMs),
      new CountryBackfillSchedule(orm, on.wallets.countries),
    ];
  }

  start(): void {
    for (const job of this.jobs) job.start();
  }

  async stop(): Promise<void> {
    await Promise.all(this.jobs.map((job) => job.stop()));
  }
}
