import { badRequest } from '../../common/errors';
import { hasIdFormat } from '../../common/ids';
import { OrderFlow } from './order.entity';

/**
 * Which flow a request or an id belongs to. Both flows of surface R share `POST /orders/subscribe`
 * and `GET /orders/:id`, so one rule must decide, from what the client sends, which flow it
 * meant: the REST rows that share a path and the services that read one flow all ask it here.
 */

/** On surface R, `POST /orders/subscribe` with `amountSubscription` is the two-step flow; with `amount`, one-step. */
export function subscribeFlow(body: Record<string, unknown>): OrderFlow {
  return Object.prototype.hasOwnProperty.call(body, 'amountSubscription') ? OrderFlow.two_step : OrderFlow.one_step;
}

/** `OR######` is a two-step order, `ord_…` a one-step one; anything else is no order's id (null). */
export function flowOfOrderId(id: unknown): OrderFlow | null {
  if (hasIdFormat(id, 'OR')) return OrderFlow.two_step;
  if (typeof id === 'string' && /^ord_[0-9a-f]{24}$/.test(id)) return OrderFlow.one_step;
  return null;
}

/**
 * An order id as a request names it: an `OR` id with another number of digits than six is
 * `invalid orderId format` (400); otherwise the flow it belongs to, or null for no order's id
 * (answered like a missing order).
 */
export function readOrderId(id: unknown): OrderFlow | null {
  if (typeof id === 'string' && /^OR\d+$/.test(id) && !hasIdFormat(id, 'OR')) throw badRequest('invalid orderId format');
  return flowOfOrderId(id);
}
