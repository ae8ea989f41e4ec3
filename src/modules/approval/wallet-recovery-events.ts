import { payloadText } from '../../common/payload-text';
import { shownId } from '../../common/ids';

/**
 * The webhook event types of a wallet recovery, sent to the investor's distributor. Additive: a
 * webhook receives only the one type it registered (`event_type`), so webhooks registered for
 * order events never see these, and one registered for these sees no order event.
 */
export const WALLET_RECOVERY_EVENTS = ['wallet.recovery_requested', 'wallet.recovery_approved', 'wallet.recovery_rejected', 'wallet.recovered'] as const;
export type WalletRecoveryEvent = (typeof WALLET_RECOVERY_EVENTS)[number];

export function isWalletRecoveryEvent(type: string): type is WalletRecoveryEvent {
  return (WALLET_RECOVERY_EVENTS as readonly string[]).includes(type);
}

/** The `data` of a wallet recovery webhook body (documented in rest-compat/openapi/). */
export interface WalletRecoveryWebhookData {
  eventId: string;
  requestId: string;
  investorId: string;
  distributorId: string;
  chainId: string | null;
  newAddress: string | null;
  reason: string | null;
  status: string;
  /** When an approved recovery runs (epoch ms); null before approval. */
  executeAfter: number | null;
  occurredAt: number;
  test: boolean;
}

export function walletRecoveryWebhookData(event: {
  eventId: string;
  occurredAt: Date;
  distributorId: string;
  payload: Record<string, unknown>;
}): WalletRecoveryWebhookData {
  const p = event.payload;
  const str = payloadText;
  return {
    eventId: event.eventId,
    requestId: String(p.requestId),
    investorId: String(p.investorId),
    distributorId: shownId(event.distributorId, 'distributor', 'R'),
    chainId: str(p.chainId),
    newAddress: str(p.newAddress),
    reason: str(p.reason),
    status: String(p.status),
    executeAfter: typeof p.executeAfter === 'number' ? p.executeAfter : null,
    occurredAt: event.occurredAt.getTime(),
    test: false,
  };
}
