import type { MikroORM } from '@mikro-orm/postgresql';
import { KycExpirySchedule, type KycClaims } from './modules/investor';
import { LockUpSchedule, type LockUpOnChain } from './modules/settlement/lock-up-onchain';

/**
 * The jobs the gateway's clock runs on the chains it writes to, started beside the chain sender
 * and stopped with the other loops at `close`: the lock-up release (lock-up-onchain.ts) and the
 * KYC claim expiry (src/modules/investor/kyc-claim.ts).
 */
export class ChainSchedules {
  private readonly jobs: { start(): void; stop(): Promise<void> }[];

  constructor(orm: MikroORM, on: { lockUp: LockUpOnChain; kycClaims: KycClaims }, every: { lockUpReleaseMs?: number; kycExpiryMs?: number }) {
    this.jobs = [new LockUpSchedule(orm, on.lockUp, every.lockUpReleaseMs), new KycExpirySchedule(orm, on.kycClaims, every.kycExpiryMs)];
  }

  start(): void {
    for (const job of this.jobs) job.start();
  }

  async stop(): Promise<void> {
    await Promise.all(this.jobs.map((job) => job.stop()));
  }
}
