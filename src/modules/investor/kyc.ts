/*
 * When an investor's KYC holds: no expiry recorded, or an expiry still ahead. The one rule the
 * gateway's refusals (eligibility.ts) and the KYC claim on chain (kyc-claim.ts) both read.
 */

/** The expiry the KYC has passed at `now`, or null while it holds. */
export const kycExpired = (expiresAt: Date | null, now: Date): Date | null => (expiresAt && expiresAt.getTime() <= now.getTime() ? expiresAt : null);

/** Whether the KYC holds at `now`. */
export const kycHolds = (expiresAt: Date | null, now: Date): boolean => kycExpired(expiresAt, now) === null;
