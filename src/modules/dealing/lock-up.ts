import type Decimal from 'decimal.js';
import { Dec } from '../../common/money';
import { dateIn, plusDays } from './dealing-calendar';
import { lockedUp } from './dealing.errors';

/** A lot as the lock-up rule sees it. */
export interface LotView {
  remaining: Decimal.Value;
  settledAt: Date;
}

export interface LockUp {
  /** The share class's `lockup`, calendar days (0: none). */
  days: number;
  /** The dealing zone: a day is counted there, and the unlock date is shown there. */
  timeZone: string;
}

/**
 * The unlocked part of a holding at `now`: tokens of lots settled at least `lockup` days ago.
 * Tokens of the balance that no lot accounts for (a holding written before lots were kept) count
 * as unlocked: they settled before anything this gateway recorded.
 */
export function unlockedBalance(
  balance: Decimal.Value,
  lots: readonly LotView[],
  lockUp: LockUp,
  now: Date,
): { unlocked: Dec; later: { at: Date; amount: Dec }[] } {
  let inLots = new Dec(0);
  let unlocked = new Dec(0);
  const later: { at: Date; amount: Dec }[] = [];
  for (const lot of lots) {
    const amount = new Dec(lot.remaining);
    inLots = inLots.plus(amount);
    const at = lockUp.days > 0 ? plusDays(lot.settledAt, lockUp.days, lockUp.timeZone) : lot.settledAt;
    if (at.getTime() <= now.getTime()) unlocked = unlocked.plus(amount);
    else later.push({ at, amount });
  }
  const untracked = Dec.max(0, new Dec(balance).minus(inLots));
  later.sort((a, b) => a.at.getTime() - b.at.getTime());
  return { unlocked: unlocked.plus(untracked), later };
}

/**
 * A redemption of `tokenCount` may use only unlocked tokens not already promised to open
 * redemptions (`reserved`, which take the oldest, first-unlocked tokens). Refused with 400 naming
 * the unlocked amount still free and the date on which enough will have unlocked.
 */
export function assertUnlocked(
  tokenCount: Decimal.Value,
  reserved: Decimal.Value,
  balance: Decimal.Value,
  lots: readonly LotView[],
  lockUp: LockUp,
  now: Date,
): void {
  if (lockUp.days <= 0) return;
  const { unlocked, later } = unlockedBalance(balance, lots, lockUp, now);
  const need = new Dec(tokenCount).plus(reserved);
  if (need.lte(unlocked)) return;
  let covered = unlocked;
  let at = later[later.length - 1]?.at ?? now;
  for (const lot of later) {
    covered = covered.plus(lot.amount);
    if (covered.gte(need)) {
      at = lot.at;
      break;
    }
  }
  throw lockedUp(Dec.max(0, unlocked.minus(reserved)).toFixed(), dateIn(at, lockUp.timeZone));
}
