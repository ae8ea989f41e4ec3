import { NAV_CORRECTION_EVENTS } from '../../src/modules/correction/nav-correction-events';
import type { WebhookPayloadDoc } from './webhook-doc';
import { additive, bool, decimal, epochMs, id, nullable, obj, str } from './schemas';

/**
 * The `data` of a NAV correction webhook (`order.repriced`, `order.compensated`): sent only to
 * webhooks registered for that event type, for the distributor's own affected orders.
 */
const navCorrectionWebhookData = additive(
  obj({
    eventId: str('`evt_…`'),
    orderId: str('The affected order (`OR######` or `ord_…`)'),
    distributorId: id('DT'),
    investorId: id('IN'),
    shareClassId: id('SC'),
    requestId: str('The `nav_correction` approval request'),
    navEntryId: str('The corrected NAV (`YYYYMMDDHHMMSS`)'),
    navBefore: decimal('The close the order was priced at'),
    navAfter: decimal('The corrected close'),
    reason: nullable(str('Why the NAV was corrected')),
    tokensAfter: nullable(decimal('`order.repriced`: the re-priced tokens (two-step `amountTokensEstimated`, one-step `settlementTokens`)')),
    action: { type: ['string', 'null'], enum: ['mint', 'burn', 'cash', null], description: '`order.compensated`: what is booked; null for `order.repriced`' },
    tokens: nullable(decimal('`order.compensated`: tokens minted (positive) or burned (negative)')),
    cashAmount: nullable(decimal('`order.compensated`, `cash`: due to the investor (positive) or by the investor (negative)')),
    occurredAt: epochMs(),
    test: bool(),
  }),
);

/**
 * What the gateway POSTs to a distributor's webhook registered for a NAV correction's event type
 * (additive; the four described order event types are unchanged and never carry these).
 */
export function navCorrectionWebhooks(): Record<string, WebhookPayloadDoc> {
  return Object.fromEntries(
    NAV_CORRECTION_EVENTS.map((type) => [
      type,
      { summary: 'an order of the distributor priced at a NAV that was corrected (a four-eyes correction)', data: navCorrectionWebhookData, additive: true },
    ]),
  );
}
