import type { NewEvent } from '../../events/event-log';
import { payloadText } from '../../common/payload-text';
import { shownId } from '../../common/ids';

/**
 * The webhook event types of a NAV correction, sent to the distributor of each affected order.
 * Additive, as the wallet recovery's are: a webhook receives only the one type it registered, so
 * one registered for the four described order events never sees these, and those stay unchanged.
 * - `order.repriced`: an order priced at the NAV and not settled was re-priced at the corrected close;
 * - `order.compensated`: an order settled at the NAV is compensated (tokens minted or burned, or cash).
 */
export const NAV_CORRECTION_EVENTS = ['order.repriced', 'order.compensated'] as const;
export type NavCorrectionEvent = (typeof NAV_CORRECTION_EVENTS)[number];

export function isNavCorrectionEvent(type: string): type is NavCorrectionEvent {
  return (NAV_CORRECTION_EVENTS as readonly string[]).includes(type);
}

/** The `data` of a NAV correction webhook body. */
export interface NavCorrectionWebhookData {
  eventId: string;
  orderId: string;
  distributorId: string;
  investorId: string;
  shareClassId: string;
  requestId: string;
  navEntryId: string;
  navBefore: string;
  navAfter: string;
  reason: string | null;
  /** `order.repriced`: the re-priced tokens (two-step estimate, one-step settlement tokens). */
  tokensAfter: string | null;
  /** `order.compensated`: mint, burn or cash, the tokens and the cash. */
  action: string | null;
  tokens: string | null;
  cashAmount: string | null;
  occurredAt: number;
  test: boolean;
}

export function navCorrectionWebhookData(event: {
  eventId: string;
  occurredAt: Date;
  distributorId: string;
  payload: Record<string, unknown>;
}): NavCorrectionWebhookData {
  const p = event.payload;
  const str = payloadText;
  return {
    eventId: event.eventId,
    orderId: String(p.orderId),
    distributorId: shownId(event.distributorId, 'distributor', 'R'),
    investorId: String(p.investorId),
    shareClassId: String(p.shareClassId),
    requestId: String(p.requestId),
    navEntryId: String(p.navEntryId),
    navBefore: String(p.navBefore),
    navAfter: String(p.navAfter),
    reason: str(p.reason),
    tokensAfter: str(p.tokensAfter),
    action: str(p.action),
    tokens: str(p.tokens),
    cashAmount: str(p.cashAmount),
    occurredAt: event.occurredAt.getTime(),
    test: false,
  };
}

/** An additive event for one affected order's distributor (nav-correction-events.ts). */
export function correctionOrderEvent(
  type: NavCorrectionEvent,
  o: { orderId: string; distributorId: string; investorId: string },
  at: Date,
  payload: Record<string, unknown>,
): NewEvent {
  return {
    type,
    aggregateType: 'order',
    aggregateId: o.orderId,
    distributorId: o.distributorId,
    occurredAt: at,
    payload: { webhookEvent: type, orderId: o.orderId, investorId: o.investorId, ...payload },
  };
}
