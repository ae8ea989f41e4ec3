/**
 * The correlation an order's own settlement intent carries on the token ledger
 * (src/ledger/token-ledger.ts): the ledger keeps one intent per correlation, so an order is never
 * minted or burned twice, and reads nothing into it.
 */
/** What an order's correlation starts with; SQL that joins intents to orders binds it (`? || o.id`). */
export const ORDER_CORRELATION_PREFIX = 'order:';

export const orderCorrelation = (orderId: string): string => `${ORDER_CORRELATION_PREFIX}${orderId}`;

/** The order an intent's correlation names; null for any other. */
export const orderOfCorrelation = (correlation: string | null | undefined): string | null =>
  correlation?.startsWith(ORDER_CORRELATION_PREFIX) ? correlation.slice(ORDER_CORRELATION_PREFIX.length) : null;
