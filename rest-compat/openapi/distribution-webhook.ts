import { DISTRIBUTION_EVENTS } from '../../src/modules/distribution/distribution-events';
import type { WebhookPayloadDoc } from './webhook-doc';
import { additive, bool, epochMs, id, nullable, obj, str } from './schemas';

/**
 * The `data` of an income webhook (`distribution.declared`: one per distributor whose investors
 * are entitled; `distribution.paid`: one per investor paid): sent only to webhooks registered for
 * that event type (docs/income.md).
 */
const distributionWebhookData = additive(
  obj({
    eventId: str('`evt_…`'),
    distributionId: str('The distribution'),
    distributorId: id('DT'),
    shareClassId: id('SC'),
    periodFrom: str('First day of the period (YYYY-MM-DD, dealing zone)'),
    periodTo: str('Last day of the period, included (the record date of an amount per token)'),
    payDate: str('YYYY-MM-DD'),
    payment: { enum: ['reinvest', 'cash'] },
    currency: str('The share class currency'),
    investorId: nullable(str('`distribution.paid`: the investor paid (IN…); null on `distribution.declared`')),
    amount: nullable(str('`distribution.paid`: paid in the currency (cash, rounded down to cents; reinvest: tokens × NAV), decimal string')),
    tokens: nullable(str('`distribution.paid` by reinvest: tokens minted, decimal string')),
    transferHash: nullable(str('`distribution.paid` on chain: the batchMint transaction')),
    holders: nullable({ type: 'integer', description: "`distribution.declared`: how many of the distributor's investors are entitled" }),
    occurredAt: epochMs(),
    test: bool(),
  }),
);

/** What the gateway POSTs to a webhook registered for an income event type (additive). */
export function distributionWebhooks(): Record<string, WebhookPayloadDoc> {
  const summary = {
    'distribution.declared': "a distribution declared on a share class the distributor's investors hold",
    'distribution.paid': "one investor's entitlement paid (cash recorded, or tokens minted)",
  };
  return Object.fromEntries(DISTRIBUTION_EVENTS.map((type) => [type, { summary: summary[type], data: distributionWebhookData, additive: true }]));
}
