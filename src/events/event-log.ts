import type { EntityManager, EventManager, EventSubscriber, FlushEventArgs, TransactionEventArgs } from '@mikro-orm/core';
import { opaqueId } from '../common/ids';
import type { EntityManager as SqlEntityManager } from '@mikro-orm/postgresql';
import { rawRows } from '../persistence/raw-query';
import { DomainEvent } from './event.entity';

export interface NewEvent {
  type: string;
  aggregateType: string;
  aggregateId: string;
  distributorId?: string | null;
  payload: Record<string, unknown>;
  occurredAt: Date;
}

/** What listeners are told of an event this process wrote. */
export interface WrittenEvent {
  type: string;
  aggregateType: string;
  aggregateId: string;
  payload: Record<string, unknown>;
}

/**
 * Appends an event to the log in the caller's unit of work: it is written by the same flush,
 * in the same transaction, as the change it tells of.
 */
export function appendEvent(em: EntityManager, event: NewEvent): DomainEvent {
  const row = em.create(DomainEvent, {
    eventId: opaqueId('evt'),
    type: event.type,
    aggregateType: event.aggregateType,
    aggregateId: event.aggregateId,
    distributorId: event.distributorId ?? undefined,
    payload: event.payload,
    occurredAt: event.occurredAt,
  });
  em.persist(row);
  return row;
}

/**
 * Appends many events with one statement in the caller's transaction (a set-based write, such as
 * a batch's settlement: one event per order), told to listeners as `eventsWritten` tells.
 */
export async function appendEventRows(em: SqlEntityManager, events: NewEvent[]): Promise<void> {
  if (!events.length) return;
  const rows = events.map((e) => ({
    event_id: opaqueId('evt'),
    type: e.type,
    aggregate_type: e.aggregateType,
    aggregate_id: e.aggregateId,
    distributor_id: e.distributorId ?? null,
    payload: e.payload,
    occurred_at: e.occurredAt.toISOString(),
  }));
  // In the given order: positions are handed out as the rows are inserted.
  await rawRows(
    em,
    `insert into "event" ("event_id", "type", "aggregate_type", "aggregate_id", "distributor_id", "payload", "occurred_at")
     select e.r->>'event_id', e.r->>'type', e.r->>'aggregate_type', e.r->>'aggregate_id', e.r->>'distributor_id', e.r->'payload', (e.r->>'occurred_at')::timestamptz
     from jsonb_array_elements(?::jsonb) with ordinality as e(r, n) order by e.n`,
    [JSON.stringify(rows)],
  );
  eventsWritten(em, events);
}

/**
 * Hands events written by a statement of the caller's own (hot paths that skip the unit of work,
 * such as an order's placement) to this process's listeners, exactly as flushed ones are: once
 * `em`'s transaction commits, or at once when the statement ran on its own.
 */
export function eventsWritten(em: EntityManager, events: WrittenEvent[]): void {
  eventCommits(em.getEventManager()).written(em, events);
}

export interface EventListener {
  /** At the write, committed or not: what must never keep a value the change may replace (caches). */
  written?(event: WrittenEvent): void;
  /** After the commit: what may announce the change (the relay's wake-up, caches again). */
  committed?(event: WrittenEvent): void;
}

/** Listens to the events this process commits through `em`'s ORM, however they were written. */
export function onEvents(em: EntityManager, listener: EventListener): void {
  eventCommits(em.getEventManager()).listeners.push(listener);
}

/**
 * The one place that knows when this process's events committed: events flushed by the unit of
 * work (`afterFlush`) and events written by statements (`eventsWritten`) are held per transaction
 * and told after its commit; nothing is told of a rollback.
 */
class EventCommits implements EventSubscriber {
  readonly listeners: EventListener[] = [];
  private readonly pending = new WeakMap<EntityManager, WrittenEvent[]>();

  afterFlush(args: FlushEventArgs): void {
    const events = args.uow
      .getChangeSets()
      .filter((cs) => cs.entity instanceof DomainEvent)
      .map((cs) => cs.entity as DomainEvent);
    if (events.length) this.written(args.em, events);
  }

  written(em: EntityManager, events: WrittenEvent[]): void {
    for (const l of this.listeners) for (const e of events) l.written?.(e);
    if (!em.isInTransaction()) return this.tell(events);
    const list = this.pending.get(em);
    if (list) list.push(...events);
    else this.pending.set(em, [...events]);
  }

  afterTransactionCommit(args: TransactionEventArgs): void {
    const list = this.pending.get(args.em);
    if (!list) return;
    this.pending.delete(args.em);
    this.tell(list);
  }

  afterTransactionRollback(args: TransactionEventArgs): void {
    this.pending.delete(args.em);
  }

  private tell(events: WrittenEvent[]): void {
    for (const l of this.listeners) for (const e of events) l.committed?.(e);
  }
}

const registry = new WeakMap<EventManager, EventCommits>();

function eventCommits(manager: EventManager): EventCommits {
  let commits = registry.get(manager);
  if (!commits) {
    commits = new EventCommits();
    manager.registerSubscriber(commits);
    registry.set(manager, commits);
  }
  return commits;
}
