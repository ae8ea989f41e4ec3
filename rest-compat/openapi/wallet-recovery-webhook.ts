import { WALLET_RECOVERY_EVENTS } from '../../src/modules/approval/wallet-recovery-events';
import type { WebhookPayloadDoc } from './webhook-doc';
import { additive, bool, epochMs, id, nullable, obj, str } from './schemas';

/**
 * The `data` of a wallet recovery webhook (`wallet.recovery_requested`, `…_approved`,
 * `…_rejected`, `wallet.recovered`): sent only to webhooks registered for that event type.
 */
const walletRecoveryWebhookData = additive(
  obj({
    eventId: str('`evt_…`'),
    requestId: str('The approval request'),
    investorId: id('IN'),
    distributorId: id('DT'),
    chainId: nullable(str()),
    newAddress: nullable(str('The wallet the tokens move to')),
    reason: nullable(str()),
    status: { enum: ['requested', 'approved', 'rejected', 'executed', 'failed'] },
    executeAfter: nullable(epochMs('When an approved recovery runs (RECOVERY_DELAY_SECONDS after approval)')),
    occurredAt: epochMs(),
    test: bool(),
  }),
);

/** What the gateway POSTs to a webhook registered for a wallet recovery's event type (additive; a webhook receives only the type it registered). */
export function walletRecoveryWebhooks(): Record<string, WebhookPayloadDoc> {
  return Object.fromEntries(
    WALLET_RECOVERY_EVENTS.map((type) => [
      type,
      {
        summary: "a recovery of one of the distributor's investors' wallets (four eyes: requested, approved or rejected by a second operator, executed)",
        data: walletRecoveryWebhookData,
        additive: true,
      },
    ]),
  );
}
