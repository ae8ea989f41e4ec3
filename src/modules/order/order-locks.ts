import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Order, OrderFlow } from './order.entity';
import { orderNotFound } from './order.errors';

/** A one-step order locked for a transition, read afresh (another transaction may have moved it). */
export async function lockOneStepOrder(em: EntityManager, orderId: unknown): Promise<Order> {
  if (typeof orderId !== 'string' || orderId === '') throw orderNotFound();
  const order = await em.findOne(Order, { id: orderId, flow: OrderFlow.one_step }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  if (!order) throw orderNotFound();
  return order;
}

/** The one-step orders of `ids` that exist, locked in id order (two batches never wait on each other crosswise). */
export function lockOneStepOrders(em: EntityManager, ids: string[]): Promise<Order[]> {
  return em.find(Order, { id: { $in: ids }, flow: OrderFlow.one_step }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true, orderBy: { id: 'asc' } });
}
