import { Dec } from '../../common/money';
import type { LotView } from '../dealing/lock-up';

/** A lot as it arrived, and the tokens that left a holding (negative changes), each with its instant. */
export interface LotArrival extends LotView {
  arrivedAt: Date;
}
export interface Departure {
  quantity: Dec;
  at: Date;
}

/**
 * A holding's lots as they stood at an instant, replayed from its lots' arrivals and its
 * departures before it, in time order: tokens leave the oldest settled lots first, as the holding
 * ledger takes them (holding-lots.ts). At one instant arrivals come first.
 */
export function lotsAt(arrivals: readonly LotArrival[], departures: readonly Departure[]): LotView[] {
  const open: { remaining: Dec; settledAt: Date }[] = [];
  const steps = [
    ...arrivals.map((a) => ({ at: a.arrivedAt.getTime(), order: 0, apply: () => insert(open, { remaining: new Dec(a.remaining), settledAt: a.settledAt }) })),
    ...departures.map((d) => ({ at: d.at.getTime(), order: 1, apply: () => take(open, d.quantity) })),
  ].sort((a, b) => a.at - b.at || a.order - b.order);
  for (const s of steps) s.apply();
  return open.filter((l) => l.remaining.isPositive());
}

function insert(open: { remaining: Dec; settledAt: Date }[], lot: { remaining: Dec; settledAt: Date }): void {
  const i = open.findIndex((l) => l.settledAt.getTime() > lot.settledAt.getTime());
  open.splice(i < 0 ? open.length : i, 0, lot);
}

function take(open: { remaining: Dec; settledAt: Date }[], quantity: Dec): void {
  let left = quantity;
  for (const lot of open) {
    if (left.lte(0)) break;
    const t = Dec.min(left, lot.remaining);
    lot.remaining = lot.remaining.minus(t);
    left = left.minus(t);
  }
}
