import { registerEnumType } from 'type-graphql';
import { conflict } from '../../common/errors';
import { OrderFlow } from './order.entity';

/**
 * Who moves an order: the distributor that placed it, operations, the supply-side platform (its
 * signed callback), or the chain (the settlement transaction at its confirmation depth).
 */
export type TransitionActor = 'distributor' | 'ops' | 'provider' | 'chain';

const PLACER = ['distributor', 'ops'] as const;
const SUPPLY = ['ops', 'provider'] as const;
const OPS = ['ops'] as const;
const OPS_OR_CHAIN = ['ops', 'chain'] as const;

/**
 * The state machines of both flows (the interface description, "Order, R-two-step" and
 * "R-one-step"), the only statement of which moves exist, who may make them and the webhook
 * event the description names for each (`order.transition` is always logged). Everything else
 * about statuses is derived from here: the status lists, the event types and their inverse, the
 * statuses that reserve tokens, the supply-side outcomes, the actions an order allows, and the
 * check every service makes before a move (`assertMove`); `recordTransition` reads this table for
 * every move, so no code path can make a move the table lacks.
 *
 * R-two-step:
 *   (none) ──subscribe──► created ──push (accepted upstream)──► submitted
 *                           │                                      │
 *                           └──cancel──► cancelled                 ├─supply: accepted ──► settled | failed
 *                                                                  └─supply: rejected
 * `created`, `submitted` and `cancelled` are the description's; the supply-side outcomes after
 * `submitted` are not named there, and take the names of the description's events.
 */
export const TRANSITIONS = {
  [OrderFlow.two_step]: [
    { from: null, to: 'created', by: PLACER, event: null },
    { from: 'created', to: 'submitted', by: PLACER, event: null },
    { from: 'created', to: 'cancelled', by: PLACER, event: null },
    { from: 'submitted', to: 'accepted', by: SUPPLY, event: 'order.accepted' },
    { from: 'submitted', to: 'rejected', by: SUPPLY, event: 'order.rejected' },
    { from: 'accepted', to: 'settled', by: SUPPLY, event: 'token.transfer_completed' },
    { from: 'accepted', to: 'failed', by: SUPPLY, event: 'token.transfer_failed' },
  ],
  [OrderFlow.one_step]: [
    { from: null, to: 'pending', by: PLACER, event: null },
    { from: 'pending', to: 'cancelled', by: PLACER, event: null },
    { from: 'pending', to: 'accepted', by: OPS, event: 'order.accepted' },
    { from: 'pending', to: 'rejected', by: OPS, event: 'order.rejected' },
    { from: 'accepted', to: 'settled', by: OPS_OR_CHAIN, event: 'token.transfer_completed' },
    { from: 'accepted', to: 'failed', by: OPS_OR_CHAIN, event: 'token.transfer_failed' },
  ],
} as const satisfies Record<OrderFlow, readonly TransitionRule[]>;

/** One allowed move of an order's state machine: from (null for placement) → to, who may, what it announces. */
export interface TransitionRule {
  from: string | null;
  to: string;
  by: readonly TransitionActor[];
  /** The webhook event the description names for this move, if any. */
  event: string | null;
}

/** A status of either flow, as the table names it (a typo in a service does not compile). */
export type OrderStatus = (typeof TRANSITIONS)[OrderFlow][number]['to'];
/** A webhook event type the table names. */
export type OrderEventType = NonNullable<(typeof TRANSITIONS)[OrderFlow][number]['event']>;

const rules = (flow: OrderFlow): readonly TransitionRule[] => TRANSITIONS[flow];
const unique = <T>(items: T[]): T[] => [...new Set(items)];

/** Every status of a flow, in the table's order. */
export function statusesOf(flow: OrderFlow): string[] {
  return unique(rules(flow).map((r) => r.to));
}

/** The webhook event types a distributor can register for: every event the table names, once. */
export const ORDER_EVENT_TYPES: readonly OrderEventType[] = unique(
  Object.values(OrderFlow).flatMap((f) => rules(f).flatMap((r) => (r.event ? [r.event as OrderEventType] : []))),
);

/** The status an order is in when `event` fires (the same in both flows), or undefined for no order event. */
export function statusOfEvent(event: string): string | undefined {
  return Object.values(OrderFlow)
    .flatMap(rules)
    .find((r) => r.event === event)?.to;
}

/** The two-step statuses the supply-side platform reports (the moves it may make). */
export const SUPPLY_OUTCOMES: readonly string[] = unique(
  rules(OrderFlow.two_step)
    .filter((r) => r.by.includes('provider'))
    .map((r) => r.to),
);

/** The statuses from which `to` can still be reached by some path of the flow's table, in the table's order. */
export function statusesLeadingTo(flow: OrderFlow, to: string): string[] {
  const found = new Set<string>();
  const visit = (status: string) => {
    for (const r of rules(flow)) {
      if (r.to === status && r.from !== null && !found.has(r.from)) {
        found.add(r.from);
        visit(r.from);
      }
    }
  };
  visit(to);
  return statusesOf(flow).filter((s) => found.has(s));
}

/** Redemptions that can still settle hold their tokens back from further redemptions: `pending`, `accepted`. */
export const RESERVING_STATUSES: readonly string[] = statusesLeadingTo(OrderFlow.one_step, 'settled');

/** The rule of a move, or a 409 naming it when the table has none. */
export function transitionRule(flow: OrderFlow, from: string | null, to: string, by: TransitionActor): TransitionRule {
  const rule = rules(flow).find((r) => r.from === from && r.to === to);
  if (!rule || !rule.by.includes(by)) throw conflict(`order cannot move from ${from ?? '(new)'} to ${to} by ${by}`);
  return rule;
}

/** The statuses a move to `to` may start from. */
export function statusesBefore(flow: OrderFlow, to: string): string[] {
  return rules(flow).flatMap((r) => (r.to === to && r.from !== null ? [r.from] : []));
}

/**
 * The check before a move, with the step's own documented refusal: when the table has no move of
 * `order` to `to` by `by`, `refused(status, from)` is thrown (e.g. `Cannot push subscription in
 * status "submitted" (only "created")`), `from` being the statuses the move may start from.
 */
export function assertMove(
  order: { flow: OrderFlow; status: string },
  to: OrderStatus,
  by: TransitionActor,
  refused: (status: string, from: string[]) => Error,
): void {
  const rule = rules(order.flow).find((r) => r.from === order.status && r.to === to);
  if (!rule || !rule.by.includes(by)) throw refused(order.status, statusesBefore(order.flow, to));
}

/** What a caller may ask of an order: each action is the move to one status. */
export enum OrderAction {
  push = 'push',
  cancel = 'cancel',
  accept = 'accept',
  reject = 'reject',
  settle = 'settle',
  fail = 'fail',
}
registerEnumType(OrderAction, { name: 'OrderAction', description: 'A move of an order: push (to submitted), cancel, accept, reject, settle, fail' });

/** The status each action moves an order to. */
export const ACTION_TARGET: Record<OrderAction, OrderStatus> = {
  [OrderAction.push]: 'submitted',
  [OrderAction.cancel]: 'cancelled',
  [OrderAction.accept]: 'accepted',
  [OrderAction.reject]: 'rejected',
  [OrderAction.settle]: 'settled',
  [OrderAction.fail]: 'failed',
};

/** The actions the table allows `by` on an order in its current status, in the table's order. */
export function allowedActions(order: { flow: OrderFlow; status: string }, by: TransitionActor): OrderAction[] {
  const targets = rules(order.flow)
    .filter((r) => r.from === order.status && r.by.includes(by))
    .map((r) => r.to);
  return targets.flatMap((to) => Object.values(OrderAction).filter((a) => ACTION_TARGET[a] === to));
}
