import { conflict } from '../../common/errors';
import { OrderFlow } from './order.entity';

/**
 * Who moves an order: the distributor that placed it, operations, the supply-side platform (its
 * signed callback), or the chain (the settlement transaction at its confirmation depth).
 */
export type TransitionActor = 'distributor' | 'ops' | 'provider' | 'chain';

/** One allowed move of an order's state machine: from (null for placement) → to, who may, what it announces. */
export interface TransitionRule {
  from: string | null;
  to: string;
  by: readonly TransitionActor[];
  /** The webhook event the description names for this move, if any (`order.transition` is always logged). */
  event: string | null;
}

const PLACER = ['distributor', 'ops'] as const;
const SETTLEMENT_EVENTS = { accepted: 'order.accepted', rejected: 'order.rejected', settled: 'token.transfer_completed', failed: 'token.transfer_failed' } as const;

/**
 * The state machines of both flows (spec/api-description.md, "Order, R-two-step" and
 * "R-one-step"), the only statement of which moves exist. Services check a move first to answer
 * the description's own message (`Cannot push subscription in status …`); `recordTransition`
 * reads this table for every move, so no code path can make a move the table lacks.
 */
export const TRANSITIONS: Record<OrderFlow, readonly TransitionRule[]> = {
  [OrderFlow.two_step]: [
    { from: null, to: 'created', by: PLACER, event: null },
    { from: 'created', to: 'submitted', by: PLACER, event: null },
    { from: 'created', to: 'cancelled', by: PLACER, event: null },
    { from: 'submitted', to: 'accepted', by: ['ops', 'provider'], event: SETTLEMENT_EVENTS.accepted },
    { from: 'submitted', to: 'rejected', by: ['ops', 'provider'], event: SETTLEMENT_EVENTS.rejected },
    { from: 'accepted', to: 'settled', by: ['ops', 'provider'], event: SETTLEMENT_EVENTS.settled },
    { from: 'accepted', to: 'failed', by: ['ops', 'provider'], event: SETTLEMENT_EVENTS.failed },
  ],
  [OrderFlow.one_step]: [
    { from: null, to: 'pending', by: PLACER, event: null },
    { from: 'pending', to: 'cancelled', by: PLACER, event: null },
    { from: 'pending', to: 'accepted', by: ['ops'], event: SETTLEMENT_EVENTS.accepted },
    { from: 'pending', to: 'rejected', by: ['ops'], event: SETTLEMENT_EVENTS.rejected },
    { from: 'accepted', to: 'settled', by: ['ops', 'chain'], event: SETTLEMENT_EVENTS.settled },
    { from: 'accepted', to: 'failed', by: ['ops', 'chain'], event: SETTLEMENT_EVENTS.failed },
  ],
};

/** The rule of a move, or a 409 naming it when the table has none. */
export function transitionRule(flow: OrderFlow, from: string | null, to: string, by: TransitionActor): TransitionRule {
  const rule = TRANSITIONS[flow].find((r) => r.from === from && r.to === to);
  if (!rule || !rule.by.includes(by)) throw conflict(`order cannot move from ${from ?? '(new)'} to ${to} by ${by}`);
  return rule;
}

/** The status a move to `to` must start from (the supply-side outcomes of the two-step flow). */
export function statusBefore(flow: OrderFlow, to: string): string | null {
  return TRANSITIONS[flow].find((r) => r.to === to)?.from ?? null;
}
