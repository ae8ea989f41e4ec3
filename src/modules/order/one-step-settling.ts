import type { ServiceContext } from '../../access/service-context';
import type { Order } from './order.entity';

/**
 * Settling or failing an accepted one-step order, which the order module's mutations
 * (`settleOneStepOrder`, `failOneStepOrder`) ask for: the settlement module, after order, does
 * it (settlement/one-step-settlement.ts), and the composition root passes it in (src/services.ts).
 * The mutations stay order's so the schema keeps their place.
 */
export interface OneStepSettling {
  settle(ctx: ServiceContext, orderId: unknown, transferHash: unknown): Promise<Order>;
  fail(ctx: ServiceContext, orderId: unknown, reason: unknown, transferHash?: unknown): Promise<Order>;
}
