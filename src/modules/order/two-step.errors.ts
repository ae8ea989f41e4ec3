import { conflict, DomainError } from '../../common/errors';

/*
 * Errors of the R-two-step flow, with the description's exact messages where it gives one.
 *
 * HTTP statuses the description leaves open ("error"):
 * - missing investor grant and missing wallet are 409: the request is well formed and names
 *   records that exist, but the investor's current provisioning state (set by operations) does
 *   not allow it — "conflict with current state" in the description's status table, not retried
 *   until operations change that state. 400 would tell the client its request is malformed, and
 *   403 would tell it the caller lacks a permission; neither is true.
 * - a supply-side refusal is UPSTREAM_REJECTED (422): the upstream reason is shown as is.
 * - no decision from the supply side (unreachable, timeout, bad answer) is 503, retry with backoff.
 */
export const investorNotGranted = (shareClassId: string) => conflict(`Investor not granted access to ${shareClassId}`);
export const noInvestorWallet = (chainId: string) => conflict(`No wallet configured for investor on chain ${chainId}`);
/** `hold` delivery needs the distributor's own wallet on the chain (not in the description). */
export const noDistributorWallet = (chainId: string) => conflict(`No wallet configured for distributor on chain ${chainId}`);
/** A share class without a primary token has no `defaultChainId` to deliver on (a provisioning gap). */
export const noDefaultChain = (shareClassId: string) => conflict(`Share class ${shareClassId} has no default chain`);

export const cannotPush = (status: string) => conflict(`Cannot push subscription in status "${status}" (only "created")`);
export const cannotCancel = (status: string) => conflict(`Cannot cancel subscription in status "${status}" (only "created")`);

export const supplyRejected = (reason: string) => new DomainError('UPSTREAM_REJECTED', reason);
export const supplyUnavailable = (message: string) => new DomainError('UPSTREAM_UNAVAILABLE', message);
export const providerNotConfigured = (providerId: string) => supplyUnavailable(`supply-side platform ${providerId} is not configured`);
/** A racing push still talks to the provider after the lease: the caller re-reads the order later. */
export const pushInProgress = () => supplyUnavailable('a push of this subscription is in progress; re-read the order');

export const cannotRecordOutcome = (outcome: string, status: string) =>
  conflict(`Cannot record supply outcome "${outcome}" for subscription in status "${status}"`);
