import type { EntityManager } from '@mikro-orm/postgresql';
import { opaqueId } from '../common/ids';
import { DomainEvent } from './event.entity';

export interface NewEvent {
  type: string;
  aggregateType: string;
  aggregateId: string;
  distributorId?: string | null;
  payload: Record<string, unknown>;
  occurredAt: Date;
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
