import type { WebhookPayloadDoc } from './webhook-doc';
import { additive, bool, decimal, epochMs, id, nullable, obj, str } from './schemas';

/**
 * The `data` of a `holding.changed` webhook (sent only to webhooks registered for it, for the
 * distributor's own investor). A transfer between holders is one event per side, each to its own
 * distributor; the counterparty is named only when the same distributor holds it.
 */
const holdingWebhookData = additive(
  obj({
    eventId: str('`evt_…`'),
    investorId: id('IN'),
    distributorId: id('DT'),
    shareClassId: str(),
    change: decimal('Signed: tokens in positive, out negative'),
    balance: decimal('The holding after the change'),
    cause: { enum: ['order', 'adjustment', 'transfer'] },
    orderId: nullable(str()),
    transferHash: nullable(str('The transaction on chain')),
    chainId: nullable(str()),
    blockNumber: nullable(str("A transfer's block")),
    wallet: nullable(str("The investor's own wallet a transfer moved")),
    direction: { type: ['string', 'null'], enum: ['in', 'out', null], description: "A transfer's direction for the investor; null for no transfer" },
    counterparty: nullable({
      ...obj({ investorId: nullable(id('IN')), wallet: str() }),
      description:
        "A transfer's other side: its investor and wallet when the same distributor holds it, the wallet alone (investorId null) when the register does not know it; null when another distributor's investor holds it (hidden across distributors) or for no transfer",
    }),
    reorg: bool('A transfer undone because its block left the chain'),
    occurredAt: epochMs(),
    test: bool(),
  }),
);

/** What the gateway POSTs to a distributor's webhook registered for `holding.changed` (additive). */
export function holdingWebhooks(): Record<string, WebhookPayloadDoc> {
  return {
    'holding.changed': {
      summary: "one of the distributor's investors' holdings moved (an order settled, an adjustment, a transfer on chain)",
      data: holdingWebhookData,
      additive: true,
    },
  };
}
