import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { opaqueId } from '../../src/common/ids';
import { runInScope } from '../../src/common/request-scope';
import type { Distributor } from '../../src/modules/distributor/distributor.entity';
import type { Investor } from '../../src/modules/investor/investor.entity';
import { Order, OrderFlow, OrderSurface, OrderType } from '../../src/modules/order/order.entity';
import { recordTransition } from '../../src/modules/order/order-transition';
import { statusesOf, type OrderStatus } from '../../src/modules/order/order-states';
import type { ShareClass } from '../../src/modules/share-class/share-class.entity';

/*
 * Orders and their transitions for the events tests, written as a service writes them: the
 * status change and its event in one transaction, through `recordTransition`.
 */

export interface OrderParties {
  distributor: Distributor;
  investor: Investor;
  shareClass: ShareClass;
}

/** An order placed (one-step `pending`, or two-step `created` with `over.flow`): one `order.transition` event, no webhook event. */
export async function aPendingOrder(orm: MikroORM, parties: OrderParties, now: Date, over: Partial<Order> = {}): Promise<string> {
  return runInScope({ actor: 'factory' }, () =>
    orm.em.fork().transactional(async (tem: EntityManager) => {
      const order = tem.create(Order, {
        id: opaqueId('ord'),
        flow: OrderFlow.one_step,
        surface: OrderSurface.R,
        type: OrderType.subscription,
        distributor: parties.distributor.id,
        investor: parties.investor.id,
        shareClass: parties.shareClass.id,
        amount: '1000',
        currency: 'USD',
        ...over,
      } as never);
      // The placement is the first status of the flow's table.
      await recordTransition(tem, order, { status: statusesOf(order.flow)[0] as OrderStatus, as: 'ops', now });
      return order.id;
    }),
  );
}

/** Moves an order, in a transaction of its own, as an ops decision or a settlement would. */
export async function moveOrder(
  orm: MikroORM,
  orderId: string,
  status: OrderStatus,
  now: Date,
  details: Record<string, unknown> = {},
  note?: string,
): Promise<void> {
  await runInScope({ actor: 'ops-test' }, () =>
    orm.em.fork().transactional(async (tem: EntityManager) => {
      const order = await tem.findOneOrFail(Order, orderId);
      if (typeof details.transferHash === 'string') order.transferHash = details.transferHash;
      if (typeof details.failureReason === 'string') order.failureReason = details.failureReason;
      await recordTransition(tem, order, { status, as: 'ops', now, details, note });
    }),
  );
}

/** A transition that rolls back: its event must never be announced. */
export async function aRolledBackTransition(orm: MikroORM, orderId: string, status: OrderStatus, now: Date): Promise<void> {
  await orm.em
    .fork()
    .transactional(async (tem: EntityManager) => {
      const order = await tem.findOneOrFail(Order, orderId);
      await recordTransition(tem, order, { status, as: 'ops', now });
      await tem.flush();
      throw new Error('rolled back on purpose');
    })
    .catch(() => undefined);
}

/** A distributor's orders with how many events each has (exactly one after a placement). */
export function ordersWithEventCounts(em: EntityManager, distributorId: string): Promise<Array<{ id: string; events: number }>> {
  return em.execute(
    `select o.id, (select count(*)::int from "event" e where e.aggregate_type = 'order' and e.aggregate_id = o.id) as events from "order" o where o.distributor_id = ?`,
    [distributorId],
  );
}
