import type { EntityManager } from '@mikro-orm/postgresql';
import { currentActor } from '../../common/request-scope';
import { appendEvent } from '../../events/event-log';
import { Order, OrderStatusEntry } from './order.entity';
import { transitionRule, type TransitionActor } from './order-states';

export interface Transition {
  status: string;
  /** Who makes the move; the flow's table (order-states.ts) must allow it. */
  as: TransitionActor;
  now: Date;
  /** Defaults to the request's actor (`x-actor`, or its door's default). */
  by?: string;
  note?: string;
  /** Extra facts for the event payload (transfer hash, failure reason, settled amounts…). */
  details?: Record<string, unknown>;
}

/**
 * Moves an order to a status its flow's table allows (order-states.ts): sets it, appends a `statusHistory` entry, bumps the order's
 * event sequence and appends the event, all in the caller's unit of work so they commit
 * together with the change. History keys are epoch ms, so an entry is placed at least one
 * millisecond after the previous one: no two transitions of an order share a key.
 */
export async function recordTransition(em: EntityManager, order: Order, t: Transition): Promise<OrderStatusEntry> {
  const previous = order.status as string | undefined;
  // A new order (no transition yet) moves from nothing: its placement.
  const rule = transitionRule(order.flow, order.eventSeq ? (previous ?? null) : null, t.status, t.as);
  const lastAt = order.history.isInitialized()
    ? order.history.getItems().reduce<number>((max, e) => Math.max(max, e.at.getTime()), 0)
    : ((await em.findOne(OrderStatusEntry, { order }, { orderBy: { at: 'desc' } }))?.at.getTime() ?? 0);
  const at = new Date(Math.max(t.now.getTime(), lastAt + 1));
  const by = t.by ?? currentActor();

  order.status = t.status;
  // A new order's first entry and its createdAt are the same instant (the audit stamp keeps a preset createdAt).
  order.createdAt ??= at;
  order.eventSeq = (order.eventSeq ?? 0) + 1;
  const entry = em.create(OrderStatusEntry, { order, at, status: t.status, by, note: t.note });
  if (order.history.isInitialized()) order.history.add(entry);
  em.persist(entry);

  appendEvent(em, {
    type: 'order.transition',
    aggregateType: 'order',
    aggregateId: order.id,
    distributorId: order.distributor.id,
    occurredAt: at,
    payload: {
      orderId: order.id,
      flow: order.flow,
      surface: order.surface,
      type: order.type,
      status: t.status,
      previousStatus: previous ?? null,
      sequence: order.eventSeq,
      webhookEvent: rule.event,
      shareClassId: order.shareClass.id,
      investorId: order.investor.id,
      distributorId: order.distributor.id,
      by,
      note: t.note ?? null,
      // Fixed at placement (src/modules/dealing): every event carries them for webhooks.
      dealingDate: order.dealingDate ?? null,
      cutOffAt: order.cutOffAt?.getTime() ?? null,
      expectedSettlementDate: order.expectedSettlementDate ?? null,
      ...(t.details ?? {}),
    },
  });
  return entry;
}

/** `statusHistory` as the description shows it: a map keyed by epoch-ms timestamp. */
export function statusHistoryMap(entries: OrderStatusEntry[]): Record<string, { status: string; by: string; note?: string }> {
  const map: Record<string, { status: string; by: string; note?: string }> = {};
  for (const e of [...entries].sort((a, b) => a.at.getTime() - b.at.getTime())) {
    map[String(e.at.getTime())] = e.note != null ? { status: e.status, by: e.by, note: e.note } : { status: e.status, by: e.by };
  }
  return map;
}
