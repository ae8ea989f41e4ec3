import { Entity, Index, PrimaryKey, Property, Unique, type Opt } from '@mikro-orm/core';
import { bigintColumn } from '../persistence/bigint-column';

/**
 * The event log. A row is appended in the same transaction as the change it tells of, so what is
 * announced has committed, and what committed is announced (the relay reads from here).
 */
@Entity({ tableName: 'event' })
@Index({ properties: ['relayedAt', 'position'] })
// An aggregate's events, e.g. an order's for the console's webhook deliveries of that order.
@Index({ properties: ['aggregateType', 'aggregateId'] })
@Index({ properties: ['distributorId', 'feedPosition'] })
export class DomainEvent {
  /** Commit-order position for the relay. */
  @PrimaryKey({ type: bigintColumn(), autoincrement: true })
  position: Opt<string>;

  /** Unique id receivers de-duplicate by (`evt_…`). */
  @Unique()
  @Property({ type: 'text' })
  eventId: string;

  /** e.g. `order.accepted`, `order.transition`, `nav.published`, `holding.changed`. */
  @Property({ type: 'text' })
  type: string;

  @Property({ type: 'text' })
  aggregateType: string;

  @Property({ type: 'text' })
  aggregateId: string;

  /** Owner of the aggregate, for routing to that distributor only; null for ops-only events. */
  @Index()
  @Property({ type: 'text', nullable: true })
  distributorId?: string;

  @Property({ type: 'json' })
  payload: Record<string, unknown>;

  @Property({ type: 'datetime', length: 3 })
  occurredAt: Date;

  /** Set by the relay once published; null rows are pending. */
  @Property({ type: 'datetime', length: 3, nullable: true })
  relayedAt?: Date;

  /**
   * Order in which the relay announced the event, numbered by the relay as it marks it relayed
   * (one relay at a time), so it follows commit order: the event feed's cursor. `position` is
   * handed out at insert and may commit out of order, so a cursor over it could skip an event.
   */
  @Property({ type: bigintColumn(), nullable: true })
  feedPosition?: string;
}
