import { isWalletRecoveryEvent, WALLET_RECOVERY_EVENTS, walletRecoveryWebhookData, type WalletRecoveryWebhookData } from '../approval';
import { DISTRIBUTION_EVENTS, distributionWebhookData, type DistributionWebhookData, isDistributionEvent } from '../distribution';
import { HOLDING_EVENTS, holdingWebhookData, type HoldingWebhookData, isHoldingEvent } from '../holding';
import { ORDER_EVENT_TYPES } from '../order';
import { isNavCorrectionEvent, NAV_CORRECTION_EVENTS, navCorrectionWebhookData, type NavCorrectionWebhookData } from '../correction';
import { orderWebhookData, type WebhookData, type WebhookOrder } from './webhook-payload';

/** A logged event as the webhooks see it. */
export interface LoggedEvent {
  eventId: string;
  type: string;
  aggregateId: string;
  distributorId: string;
  occurredAt: Date;
  payload: Record<string, unknown>;
}

/** One family of webhook events: what a webhook may register for, which logged events it sends, and their `data`. */
interface WebhookEventFamily {
  /** The event types a webhook may register for (and the OpenAPI `eventType` enum lists). */
  types: readonly string[];
  /** Whether a logged event (by its log type) belongs to the family. */
  logs(type: string): boolean;
  /** The webhook event type the event is delivered as; null when it is not delivered. */
  deliveredAs(event: { type: string; payload: Record<string, unknown> }): string | null;
  /** Whether `data` needs the event's order (the aggregate), loaded once per batch. */
  readsOrder: boolean;
  data(event: LoggedEvent, order: WebhookOrder | null): WebhookEventData;
}

export type WebhookEventData = WebhookData | WalletRecoveryWebhookData | DistributionWebhookData | HoldingWebhookData | NavCorrectionWebhookData;

/** The recorder names the webhook event in the payload (an order's transition names its own). */
const namedInPayload = (e: { payload: Record<string, unknown> }) => (typeof e.payload.webhookEvent === 'string' ? e.payload.webhookEvent : null);

/** The families, in the order the OpenAPI enum lists their types (docs/api.md, "Webhooks"). */
const FAMILIES: readonly WebhookEventFamily[] = [
  {
    types: ORDER_EVENT_TYPES,
    logs: (type) => type === 'order.transition',
    deliveredAs: namedInPayload,
    readsOrder: true,
    data: (e, order) => orderWebhookData(e, order),
  },
  { types: WALLET_RECOVERY_EVENTS, logs: isWalletRecoveryEvent, deliveredAs: namedInPayload, readsOrder: false, data: walletRecoveryWebhookData },
  { types: DISTRIBUTION_EVENTS, logs: isDistributionEvent, deliveredAs: namedInPayload, readsOrder: false, data: distributionWebhookData },
  { types: HOLDING_EVENTS, logs: isHoldingEvent, deliveredAs: (e) => e.type, readsOrder: false, data: holdingWebhookData },
  { types: NAV_CORRECTION_EVENTS, logs: isNavCorrectionEvent, deliveredAs: namedInPayload, readsOrder: false, data: navCorrectionWebhookData },
];

/** Every event type a webhook may register for. */
export const WEBHOOK_EVENT_TYPES: readonly string[] = FAMILIES.flatMap((f) => f.types);

export function isWebhookEventType(type: string): boolean {
  return WEBHOOK_EVENT_TYPES.includes(type);
}

export function familyOf(type: string): WebhookEventFamily | null {
  return FAMILIES.find((f) => f.logs(type)) ?? null;
}

/** The webhook event type a logged event is delivered as, or null for none. */
export function webhookTypeOf(event: { type: string; payload: Record<string, unknown> }): string | null {
  return familyOf(event.type)?.deliveredAs(event) ?? null;
}

/** The exact bytes sent: `{"event_type":…,"data":{…}}`. */
export function webhookBody(eventType: string, data: WebhookEventData): string {
  return JSON.stringify({ event_type: eventType, data });
}
