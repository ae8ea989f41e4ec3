import { Dec } from '../../common/money';
import type { LotView } from '../dealing';
import { insertLot, takeOldest, type WorkingLot } from '../holding';

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
 * departures before it, in time order, by the holding ledger's own rule (holding-lots.ts):
 * tokens leave the oldest settled lots first. At one instant arrivals come first.
 */
export function lotsAt(arrivals: readonly LotArrival[], departures: readonly Departure[]): LotView[] {
  const open: WorkingLot[] = [];
  const steps = [
    ...arrivals.map((a) => ({
      at: a.arrivedAt.getTime(),
      order: 0,
      apply: () => insertLot(open, { remaining: new Dec(a.remaining), settledAt: a.settledAt }),
    })),
    ...departures.map((d) => ({ at: d.at.getTime(), order: 1, apply: () => takeOldest(open, d.quantity) })),
  ].sort((a, b) => a.at - b.at || a.order - b.order);
  for (const s of steps) s.apply();
  return open.filter((l) => l.remaining.gt(0));
}
