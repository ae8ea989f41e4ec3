import type { EntityManager } from '@mikro-orm/postgresql';
import { currentActor, currentPrincipal } from '../../common/request-scope';
import { firstWrite } from '../../persistence/audited.entity';
import { opaqueId } from '../../common/ids';
import { readRecord } from '../../persistence/read-record';
import { appendEvent, appendEventRows, eventsWritten, type NewEvent } from '../../events/event-log';
import { Order, OrderStatusEntry, type OrderFlow, type OrderSurface, type OrderType } from './order.entity';
import type { OrderRecord } from './order.service';
import { insertPlacement } from './order-placement.queries';
import { insertHistoryEntries, lastHistoryInstants, updateMovedOrders } from './order.queries';
import { transitionRule, type OrderStatus, type TransitionActor } from './order-states';

export interface Transition {
  status: OrderStatus;
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
  // A new order (no transition yet) moves from nothing: its placement.
  const previous = order.eventSeq ? ((order.status as string | undefined) ?? null) : null;
  const lastAt = order.history.isInitialized()
    ? order.history.getItems().reduce<number>((max, e) => Math.max(max, e.at.getTime()), 0)
    : ((await em.findOne(OrderStatusEntry, { order }, { orderBy: { at: 'desc' } }))?.at.getTime() ?? 0);
  const move = moveOf(order, previous, t, lastAt);

  order.status = t.status;
  // A new order's first entry and its createdAt are the same instant (the audit stamp keeps a preset createdAt).
  order.createdAt ??= move.at;
  order.eventSeq = move.sequence;
  const entry = em.create(OrderStatusEntry, { order, at: move.at, status: t.status, by: move.by, note: t.note });
  if (order.history.isInitialized()) order.history.add(entry);
  em.persist(entry);
  appendEvent(em, move.event);
  return entry;
}

/** One order's move among many (`recordTransitions`), and the fields that change with it. */
export interface SetMove {
  order: MovingOrder & { status: string; eventSeq: number };
  t: Transition;
  fields?: { transferHash?: string; failureReason?: string };
}

/**
 * The moves of many orders, each exactly as `recordTransition` makes it (the table's rule, the
 * history entry one millisecond after the previous at least, the sequence, the event), in four
 * statements whatever their number: a batch of a dealing date settled at once. The orders are
 * written by statements, not by the unit of work: the entities passed in are not updated, so
 * the caller reads them again if it needs their new state.
 */
export async function recordTransitions(em: EntityManager, moves: SetMove[]): Promise<void> {
  if (!moves.length) return;
  const last = await lastHistoryInstants(
    em,
    moves.map((m) => m.order.id),
  );
  const lastAt = new Map(last.map((r) => [r.order_id, new Date(r.at).getTime()]));
  const by = currentActor();
  const made = moves.map((m) => ({ m, move: moveOf(m.order, m.order.status, m.t, lastAt.get(m.order.id) ?? 0) }));
  const rows = made.map(({ m, move }) => ({
    id: m.order.id,
    status: m.t.status,
    seq: move.sequence,
    transfer_hash: m.fields?.transferHash ?? null,
    failure_reason: m.fields?.failureReason ?? null,
    at: move.at.toISOString(),
    updated_at: m.t.now.toISOString(),
    by: move.by,
    note: m.t.note ?? null,
  }));
  await updateMovedOrders(em, rows, { by, principal: currentPrincipal() });
  await insertHistoryEntries(em, rows, currentPrincipal());
  await appendEventRows(
    em,
    made.map(({ move }) => move.event),
  );
}

/** An order being placed: its fields (relations by id); its id, or null for the next `OR` id. */
export interface NewOrder extends Omit<
  Partial<Order>,
  'id' | 'distributor' | 'investor' | 'shareClass' | 'history' | 'status' | 'eventSeq' | 'createdAt' | 'updatedAt' | 'createdBy' | 'updatedBy'
> {
  id: string | null;
  flow: OrderFlow;
  surface: OrderSurface;
  type: OrderType;
  distributor: { id: string };
  investor: { id: string };
  shareClass: { id: string };
}

/**
 * An order's placement, the move from nothing that `recordTransition` makes for an order of the
 * unit of work, written by one statement in the caller's transaction: the order with its audit
 * fields, its first `statusHistory` entry and its event. The hot path of both flows, where the unit
 * of work's change sets cost far more than the SQL (docs/benchmarks.md). Returns the order as a read-only record with its
 * history, as a read of it would.
 */
export async function recordPlacement(em: EntityManager, order: NewOrder, t: Transition): Promise<OrderRecord> {
  // The id may come from its sequence inside the statement: the event takes it from there.
  const move = moveOf({ ...order, id: '' }, null, t, 0);
  const at = move.at;
  const { id, distributor, investor, shareClass, ...fields } = order;
  const row: Record<string, unknown> = {
    ...fields,
    distributor: distributor.id,
    investor: investor.id,
    shareClass: shareClass.id,
    status: t.status,
    eventSeq: move.sequence,
    // A new order's createdAt is its first entry's instant (as recordTransition sets it).
    ...firstWrite(at),
  };
  const columns = orderColumns(
    em,
    Object.keys(row).filter((k) => row[k] !== undefined),
  );
  const { orderId: _, ...payload } = move.event.payload;
  const written = await insertPlacement(em, {
    id,
    columns: columns.map((c) => ({ column: c.column, value: row[c.property] })),
    entry: { at, status: t.status, by: move.by, byPrincipal: currentPrincipal(), note: t.note ?? null },
    event: {
      eventId: opaqueId('evt'),
      type: move.event.type,
      aggregateType: move.event.aggregateType,
      distributorId: move.event.distributorId,
      payload: JSON.stringify(payload),
      occurredAt: at,
    },
  });
  eventsWritten(em, [{ ...move.event, aggregateId: written.id, payload: { ...move.event.payload, orderId: written.id } }]);
  const entry = readRecord(OrderStatusEntry, { id: String(written.entry_id), order: { id: written.id }, at, status: t.status, by: move.by, note: t.note });
  return readRecord(Order, { ...row, id: written.id, distributor, investor, shareClass, loadedStatusHistory: [entry] }) as OrderRecord;
}

/**
 * A move's facts, the same for both ways of writing it: the flow's table must allow it; its
 * instant is at least one millisecond after the previous entry (history keys are epoch ms, so no
 * two transitions of an order share one); the event every transition appends.
 */
type MovingOrder = Pick<Order, 'id' | 'flow' | 'surface' | 'type' | 'dealingDate' | 'cutOffAt' | 'expectedSettlementDate'> & {
  eventSeq?: number;
  distributor: { id: string };
  investor: { id: string };
  shareClass: { id: string };
};

function moveOf(order: MovingOrder, previous: string | null, t: Transition, lastAt: number) {
  const rule = transitionRule(order.flow, previous, t.status, t.as);
  const at = new Date(Math.max(t.now.getTime(), lastAt + 1));
  const by = t.by ?? currentActor();
  const sequence = (order.eventSeq ?? 0) + 1;
  const event: NewEvent = {
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
      previousStatus: previous,
      sequence,
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
  };
  return { at, by, sequence, event };
}

/** The order table's columns of the given entity properties, from the ORM's metadata (memoised per set). */
const columnSets = new Map<string, { property: string; column: string }[]>();
function orderColumns(em: EntityManager, properties: string[]): { property: string; column: string }[] {
  const key = properties.join(',');
  let columns = columnSets.get(key);
  if (!columns) {
    const meta = em.getMetadata().get(Order.name);
    columns = properties.map((property) => {
      const prop = meta.properties[property as keyof Order];
      if (!prop?.fieldNames?.length) throw new Error(`Order has no column for ${property}`);
      return { property, column: prop.fieldNames[0] };
    });
    columnSets.set(key, columns);
  }
  return columns;
}
