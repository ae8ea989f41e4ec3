/**
 * The bench drives one distributor, one ops token and one address far past any real client: its
 * gateways lift the quotas (src/access/quotas.ts, docs/scaling.md) so that what is measured is the
 * gateway, not the refusals. QUOTA_* in the environment still win.
 */
export const BENCH_QUOTAS: Record<string, string> = {
  QUOTA_WRITES: '1000000',
  QUOTA_SOCKETS_PER_PRINCIPAL: '1000000',
  QUOTA_SOCKETS_PER_ADDRESS: '1000000',
  QUOTA_SUBSCRIPTIONS_PER_PRINCIPAL: '1000000',
  QUOTA_SUBSCRIPTIONS_PER_ADDRESS: '1000000',
};
