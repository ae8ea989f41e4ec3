import { ORDER_EVENT_TYPES, statusOfEvent } from '../../src/modules/order/order-states';
import { webhookData } from './schemas';
import type { WebhookPayloadDoc } from './webhook-doc';

/** What each of the four described events says happened to an order. */
const SUMMARY: Record<string, string> = {
  accepted: 'an order was accepted',
  rejected: 'an order was rejected (`reason` says why)',
  settled: 'the tokens of an order moved on chain (`transferHash`); the order is settled',
  failed: 'the token transfer of an accepted order failed (`reason`); the order is failed',
};

/**
 * The described events (`order.accepted`, `order.rejected`, `token.transfer_completed`,
 * `token.transfer_failed`): one `data` shape for the four, fields an event does not have null.
 * Ids are those of the surface the order was placed on (`US`/`PT` on surface O, `IN`/`DT` on R).
 */
export function orderWebhooks(): Record<string, WebhookPayloadDoc> {
  return Object.fromEntries(
    ORDER_EVENT_TYPES.map((type) => {
      const status = statusOfEvent(type) ?? '';
      return [type, { summary: SUMMARY[status] ?? status, data: { ...webhookData, description: `\`status\` is \`${status}\`` } }];
    }),
  );
}
