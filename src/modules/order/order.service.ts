import { distributorScope } from '../../common/principal';
import type { ServiceContext } from '../../common/service-context';
import { Order } from './order.entity';
import { orderNotFound } from './order.errors';

/**
 * What both order flows share: reading an order as the caller may see it. The flows' own rules
 * live in their services (two-step and one-step), which build on this.
 */
export class OrderService {
  /** The order if the caller may see it; another distributor's answers `order not found`. */
  async getVisible(ctx: ServiceContext, orderId: unknown): Promise<Order> {
    if (typeof orderId !== 'string' || orderId === '') throw orderNotFound();
    const scope = distributorScope(ctx.principal);
    const order = await ctx.em.findOne(Order, scope === null ? { id: orderId } : { id: orderId, distributor: scope });
    if (!order) throw orderNotFound();
    return order;
  }
}
