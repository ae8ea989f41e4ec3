import { isWalletRecoveryEvent, type WalletRecoveryWebhookData } from '../approval';
import { type DistributionWebhookData, isDistributionEvent } from '../distribution';
import { type HoldingWebhookData, isHoldingEvent } from '../holding';
import { isNavCorrectionEvent, type NavCorrectionWebhookData } from '../correction';

/** What a synthetic event is made of: its id, the webhook's distributor and one of its share classes. */
export interface SampleFacts {
  eventId: string;
  distributorId: string;
  shareClassId: string;
  now: Date;
}

const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * The `data` of a test delivery (`POST /webhooks/test`) of an additive event type: every field of
 * the real payload, with made-up values and `test: true`. Null for a type of no additive family
 * (the order events' samples are the service's, which reads the dealing calendar).
 */
export function sampleWebhookData(
  type: string,
  f: SampleFacts,
): WalletRecoveryWebhookData | DistributionWebhookData | HoldingWebhookData | NavCorrectionWebhookData | null {
  const common = { eventId: f.eventId, distributorId: f.distributorId, occurredAt: f.now.getTime(), test: true };
  if (isWalletRecoveryEvent(type)) {
    const status = {
      'wallet.recovery_requested': 'requested',
      'wallet.recovery_approved': 'approved',
      'wallet.recovery_rejected': 'rejected',
      'wallet.recovered': 'executed',
    }[type];
    return {
      ...common,
      requestId: '0',
      investorId: 'IN000000',
      chainId: '1',
      newAddress: `0x${'0'.repeat(40)}`,
      reason: 'test recovery',
      status,
      executeAfter: type === 'wallet.recovery_approved' ? f.now.getTime() : null,
    };
  }
  if (isDistributionEvent(type)) {
    const paid = type === 'distribution.paid';
    return {
      ...common,
      distributionId: '0',
      shareClassId: f.shareClassId,
      periodFrom: day(f.now),
      periodTo: day(f.now),
      payDate: day(f.now),
      payment: 'cash',
      currency: 'USD',
      investorId: paid ? 'IN000000' : null,
      amount: paid ? '1' : null,
      tokens: null,
      transferHash: null,
      holders: paid ? null : 1,
    };
  }
  if (isHoldingEvent(type)) {
    return {
      ...common,
      investorId: 'IN000000',
      shareClassId: f.shareClassId,
      change: '1',
      balance: '1',
      cause: 'adjustment',
      orderId: null,
      transferHash: null,
      chainId: null,
      blockNumber: null,
      wallet: null,
      direction: null,
      counterparty: null,
      reorg: false,
    };
  }
  if (isNavCorrectionEvent(type)) {
    const compensated = type === 'order.compensated';
    return {
      ...common,
      orderId: 'OR000000',
      investorId: 'IN000000',
      shareClassId: f.shareClassId,
      requestId: '0',
      navEntryId: '20260101000000',
      navBefore: '1',
      navAfter: '1.1',
      reason: 'test correction',
      tokensAfter: compensated ? null : '1',
      action: compensated ? 'mint' : null,
      tokens: compensated ? '1' : null,
      cashAmount: null,
    };
  }
  return null;
}
