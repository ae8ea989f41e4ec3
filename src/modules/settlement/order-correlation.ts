/**
 * The correlation an order's own settlement intent carries on the token ledger
 * (src/ledger/token-ledger.ts): the ledger keeps one intent per correlation, so an order is never
 * minted or burned twice, and reads nothing into it.
 */
export const orderCorrelation = (orderId: string): string => `order:${orderId}`;

/** The order an intent's correlation names; null for any other. */
export const orderOfCorrelation = (correlation: string | null | undefined): string | null =>
  correlation?.startsWith('order:') ? correlation.slice('order:'.length) : null;
