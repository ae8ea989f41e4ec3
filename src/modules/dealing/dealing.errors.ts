import { badRequest } from '../../common/errors';

/** A subscription below the share class's `details.minimumInvestment_fiat`. */
export const belowMinimumInvestment = (field: string, minimum: string, currency: string) =>
  badRequest(`${field} is below the minimum investment of ${minimum} ${currency}`);

/** An order's currency that is neither the share class's nor one ops allow for it. */
export const currencyNotAllowed = (allowed: readonly string[]) => badRequest(`currency must be one of ${allowed.join(', ')}`);

/** A redemption asking for tokens still in their lock-up (the whole holding would cover it). */
export const lockedUp = (unlocked: string, unlocksOn: string) =>
  badRequest(`tokenCount exceeds unlocked holdings: ${unlocked} unlocked, the rest unlocks on ${unlocksOn}`);
