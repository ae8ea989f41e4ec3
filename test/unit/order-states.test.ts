import { MetadataStorage } from '@mikro-orm/core';
import { Order, OrderFlow } from '../../src/modules/order/order.entity';
import {
  ACTION_TARGET,
  allowedActions,
  assertMove,
  ORDER_EVENT_TYPES,
  OrderAction,
  RESERVING_STATUSES,
  statusesOf,
  statusOfEvent,
  SUPPLY_OUTCOMES,
  TRANSITIONS,
  transitionRule,
  type OrderStatus,
  type TransitionActor,
} from '../../src/modules/order/order-states';
import { OPEN_REDEMPTION_CONDITION } from '../../src/modules/order/open-orders';
import { noLongerCancellable, wrongStatus } from '../../src/modules/order/one-step.errors';
import { cannotCancel, cannotPush, cannotRecordOutcome } from '../../src/modules/order/two-step.errors';
import { eventType } from '../../rest-compat/openapi/schemas';
import { WALLET_RECOVERY_EVENTS } from '../../src/modules/approval/wallet-recovery-events';

const FLOWS = Object.values(OrderFlow);
const ACTORS: TransitionActor[] = ['distributor', 'ops', 'provider'];
const refusal = (status: string, from: string[]) => new Error(`refused ${status} (from ${from.join(',')})`);

describe('The transition table, walked', () => {
  it.each(FLOWS)('%s: every status is reached from the placement, and every move starts from a reached status', (flow) => {
    const reached = new Set<string>();
    const placement = TRANSITIONS[flow].filter((r) => r.from === null);
    expect(placement).toHaveLength(1);
    const queue = [placement[0].to as string];
    while (queue.length) {
      const status = queue.shift()!;
      if (reached.has(status)) continue;
      reached.add(status);
      queue.push(...TRANSITIONS[flow].filter((r) => r.from === status).map((r) => r.to));
    }
    expect([...reached].sort()).toEqual(statusesOf(flow).sort());
  });

  it.each(FLOWS)('%s: assertMove and recordTransition agree with the table for every status, target and actor', (flow) => {
    const statuses = statusesOf(flow) as OrderStatus[];
    for (const from of statuses)
      for (const to of statuses)
        for (const by of ACTORS) {
          const rule = TRANSITIONS[flow].find((r) => r.from === from && r.to === to && (r.by as readonly string[]).includes(by));
          const check = () => assertMove({ flow, status: from }, to, by, refusal);
          if (rule) {
            expect(check).not.toThrow();
            expect(transitionRule(flow, from, to, by)).toBe(rule);
          } else {
            const before = TRANSITIONS[flow].filter((r) => r.to === to && r.from !== null).map((r) => r.from);
            expect(check).toThrow(`refused ${from} (from ${before.join(',')})`);
            expect(() => transitionRule(flow, from, to, by)).toThrow(`order cannot move from ${from} to ${to} by ${by}`);
          }
        }
  });

  it.each(FLOWS)("%s: allowedActions are exactly the table's moves from the status, for each actor", (flow) => {
    for (const status of statusesOf(flow))
      for (const by of ACTORS) {
        const targets = TRANSITIONS[flow].filter((r) => r.from === status && (r.by as readonly string[]).includes(by)).map((r) => r.to as string);
        expect(
          allowedActions({ flow, status }, by)
            .map((a) => ACTION_TARGET[a])
            .sort(),
        ).toEqual(targets.sort());
      }
  });

  it('every action names a status of some flow, and no two actions the same status', () => {
    const targets = Object.values(OrderAction).map((a) => ACTION_TARGET[a]);
    expect(new Set(targets).size).toBe(targets.length);
    for (const t of targets) expect(FLOWS.some((f) => statusesOf(f).includes(t))).toBe(true);
  });

  it("the events both ways: each event belongs to one status in both flows, and is the description's four", () => {
    expect(ORDER_EVENT_TYPES).toEqual(['order.accepted', 'order.rejected', 'token.transfer_completed', 'token.transfer_failed']);
    for (const flow of FLOWS) for (const r of TRANSITIONS[flow]) if (r.event) expect(statusOfEvent(r.event)).toBe(r.to);
    expect(statusOfEvent('order.transition')).toBeUndefined();
    // A webhook's event types: the description's four, then the additive wallet-recovery, income, holding and NAV-correction ones (registered for by name only).
    expect(eventType).toEqual({
      enum: [
        ...ORDER_EVENT_TYPES,
        ...WALLET_RECOVERY_EVENTS,
        'distribution.declared',
        'distribution.paid',
        'holding.changed',
        'order.repriced',
        'order.compensated',
      ],
    });
  });

  it('derived lists: reserving statuses, supply outcomes, two-step statuses', () => {
    expect([...RESERVING_STATUSES].sort()).toEqual(['accepted', 'pending']);
    expect(SUPPLY_OUTCOMES).toEqual(['accepted', 'rejected', 'settled', 'failed']);
    expect(statusesOf(OrderFlow.two_step)).toEqual(['created', 'submitted', 'cancelled', 'accepted', 'rejected', 'settled', 'failed']);
  });

  it("the partial index of open redemptions has the reserving statuses' condition", () => {
    const indexes = MetadataStorage.getMetadataFromDecorator(Order).indexes;
    const index = indexes.find((i) => i.name === 'order_open_redemption_index');
    const condition = String(index?.expression).split(' where ')[1]?.replace(/"/g, '');
    expect(condition).toBe(OPEN_REDEMPTION_CONDITION);
  });

  it('the documented refusals keep their exact messages', () => {
    const two = (status: string) => ({ flow: OrderFlow.two_step, status });
    const one = (status: string) => ({ flow: OrderFlow.one_step, status });
    expect(() => assertMove(two('submitted'), 'submitted', 'distributor', cannotPush)).toThrow(
      'Cannot push subscription in status "submitted" (only "created")',
    );
    expect(() => assertMove(two('cancelled'), 'cancelled', 'distributor', cannotCancel)).toThrow(
      'Cannot cancel subscription in status "cancelled" (only "created")',
    );
    expect(() => assertMove(two('created'), 'settled', 'provider', (s) => cannotRecordOutcome('settled', s))).toThrow(
      'Cannot record supply outcome "settled" for subscription in status "created"',
    );
    expect(() => assertMove(one('accepted'), 'cancelled', 'distributor', noLongerCancellable)).toThrow('order is no longer cancellable');
    expect(() => assertMove(one('settled'), 'accepted', 'ops', wrongStatus('accept'))).toThrow('Cannot accept order in status "settled" (only "pending")');
    expect(() => assertMove(one('pending'), 'settled', 'ops', wrongStatus('settle'))).toThrow('Cannot settle order in status "pending" (only "accepted")');
  });
});
