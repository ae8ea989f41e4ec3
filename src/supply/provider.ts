/**
 * The supply-side platform, as the gateway sees it: a provider that takes a priced two-step
 * subscription and either accepts it (returning its own reference) or refuses it (with a reason).
 * Anything else — unreachable, timing out, answering 5xx or gibberish — is "unavailable": the
 * order is left untouched and the caller may retry after re-reading the order.
 */
export interface SupplyOrderRequest {
  /** Our order id; the provider treats it as an idempotency key (a resend returns the same reference). */
  clientOrderId: string;
  orderType: 'SUBSCRIPTION';
  fundId: string;
  shareClassId: string;
  isin: string;
  distributorId: string;
  investorId: string;
  /** Decimal strings: never binary floats on the wire either. */
  amountSubscription: string;
  amountFeesTotal: string;
  amountPayable: string;
  feesSubBps: number;
  currency: string;
  deliveryMode: string;
  deliveryWallet: string;
  chainId: string;
  externalRef: string | null;
}

/** The literal exchange: the JSON we sent and the JSON we received. */
export interface SupplyExchange {
  request: Record<string, unknown>;
  response: Record<string, unknown>;
}

export type SupplySubmission =
  { outcome: 'accepted'; orderReference: string; exchange: SupplyExchange } | { outcome: 'rejected'; reason: string; exchange: SupplyExchange };

export interface SupplyProvider {
  readonly id: string;
  /** Resolves accepted/rejected; throws SupplyUnavailableError when no decision was obtained. */
  submit(order: SupplyOrderRequest): Promise<SupplySubmission>;
}

/** No decision from the provider (network, timeout, 5xx, malformed answer). */
export class SupplyUnavailableError extends Error {
  constructor(
    readonly providerId: string,
    readonly reason: 'unreachable' | 'timeout' | 'bad_response',
    detail: string,
  ) {
    super(
      `supply-side platform ${providerId} ${reason === 'timeout' ? 'timed out' : reason === 'unreachable' ? 'is unreachable' : 'answered unexpectedly'}: ${detail}`,
    );
    this.name = 'SupplyUnavailableError';
  }
}

/** Settings of one provider id (SUPPLY_PROVIDERS, validated in src/config/supply.ts). */
export interface SupplyProviderConfig {
  /** Base URL of the provider's order API; orders are POSTed to `<url>/orders`. */
  url: string;
  /** Whole-exchange timeout of a push, ms (default 10000). */
  timeoutMs: number;
  /** Sent as `Authorization: Bearer <apiKey>` when set. */
  apiKey?: string;
  /** HMAC-SHA256 key of the provider's outcome callbacks; without it callbacks are refused. */
  callbackSecret?: string;
}

export type SupplyProvidersConfig = Record<string, SupplyProviderConfig>;
