import { payloadText } from '../../common/payload-text';
import type { EntityManager } from '@mikro-orm/postgresql';
import { shownId } from '../../common/ids';
import { appendEvent } from '../../events/event-log';
import type { Distribution, DistributionEntitlement } from './distribution.entity';

/**
 * The webhook event types of income, sent to the distributors of the holders concerned.
 * Additive: a webhook receives only the one type it registered (`event_type`), so webhooks
 * registered for order events never see these.
 */
export const DISTRIBUTION_EVENTS = ['distribution.declared', 'distribution.paid'] as const;
export type DistributionEvent = (typeof DISTRIBUTION_EVENTS)[number];

export function isDistributionEvent(type: string): type is DistributionEvent {
  return (DISTRIBUTION_EVENTS as readonly string[]).includes(type);
}

/** The `data` of an income webhook body (documented in rest-compat/openapi/). */
export interface DistributionWebhookData {
  eventId: string;
  distributionId: string;
  distributorId: string;
  shareClassId: string;
  periodFrom: string;
  periodTo: string;
  payDate: string;
  payment: string;
  currency: string;
  /** `distribution.paid`: the investor paid; `distribution.declared`: null. */
  investorId: string | null;
  /** Paid in the currency (cash, or minted tokens × NAV); declared: the investor's… null. */
  amount: string | null;
  /** Tokens minted (reinvest); else null. */
  tokens: string | null;
  transferHash: string | null;
  /** `distribution.declared`: how many of the distributor's investors are entitled. */
  holders: number | null;
  occurredAt: number;
  test: boolean;
}

const facts = (d: Distribution) => ({
  distributionId: String(d.id),
  shareClassId: d.shareClassId,
  periodFrom: d.periodFrom,
  periodTo: d.periodTo,
  payDate: d.payDate,
  payment: d.payment,
  currency: d.currency,
});

/** One `distribution.declared` per distributor whose investors are entitled, in the declaring transaction. */
export function declaredEvents(em: EntityManager, d: Distribution, holdersPerDistributor: Map<string, number>, at: Date): void {
  for (const [distributorId, holders] of holdersPerDistributor) {
    appendEvent(em, {
      type: 'distribution.declared',
      aggregateType: 'distribution',
      aggregateId: String(d.id),
      distributorId,
      payload: { webhookEvent: 'distribution.declared', ...facts(d), holders },
      occurredAt: at,
    });
  }
}

/** One `distribution.paid` for an investor, in the transaction that records the payment. */
export function paidEvent(em: EntityManager, d: Distribution, e: DistributionEntitlement, at: Date): void {
  appendEvent(em, {
    type: 'distribution.paid',
    aggregateType: 'distribution',
    aggregateId: String(d.id),
    distributorId: e.distributorId,
    payload: {
      webhookEvent: 'distribution.paid',
      ...facts(d),
      investorId: e.investorId,
      amount: e.amount ?? null,
      tokens: e.tokens ?? null,
      transferHash: e.transferHash ?? null,
    },
    occurredAt: at,
  });
}

export function distributionWebhookData(event: {
  eventId: string;
  occurredAt: Date;
  distributorId: string;
  payload: Record<string, unknown>;
}): DistributionWebhookData {
  const p = event.payload;
  const str = payloadText;
  return {
    eventId: event.eventId,
    distributionId: String(p.distributionId),
    distributorId: shownId(event.distributorId, 'distributor', 'R'),
    shareClassId: String(p.shareClassId),
    periodFrom: String(p.periodFrom),
    periodTo: String(p.periodTo),
    payDate: String(p.payDate),
    payment: String(p.payment),
    currency: String(p.currency),
    investorId: p.investorId ? shownId(payloadText(p.investorId)!, 'investor', 'R') : null,
    amount: str(p.amount),
    tokens: str(p.tokens),
    transferHash: str(p.transferHash),
    holders: typeof p.holders === 'number' ? p.holders : null,
    occurredAt: event.occurredAt.getTime(),
    test: false,
  };
}
