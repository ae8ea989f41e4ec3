import { BaseError } from 'viem';
import { badRequest, DomainError, isDatabaseUnavailable } from '../../common/errors';

export const chainNotWritable = (chainId: string) => badRequest(`chain ${chainId} is not configured with an agent key`);
export const chainNotReadable = (chainId: string) => badRequest(`chain ${chainId} is not configured`);
/** Seconds a client waits before asking again while a chain's node does not answer. */
export const CHAIN_RETRY_AFTER_SECONDS = 5;
/** A chain that is away is a 503 (SERVICE_UNAVAILABLE with retryAfter), never a 500: nothing was done, the same request may succeed later. */
export const chainUnavailable = (chainId: string, detail: string) =>
  new DomainError('SERVICE_UNAVAILABLE', `chain ${chainId} is unreachable: ${detail}`, CHAIN_RETRY_AFTER_SECONDS);
export const chainAway = (chainId: string) => chainUnavailable(chainId, 'its node does not answer');

/** viem's errors for a node that did not answer (refused, reset, timed out), anywhere in the causes. */
export function isChainUnreachable(err: unknown): boolean {
  // The socket errors underneath (ECONNREFUSED…) are the ones the database check knows.
  return isDatabaseUnavailable(err);
}
/**
 * Whether a background pass failed because the database is away. A node's refused or reset socket
 * carries the same codes (ECONNREFUSED…) under viem's own errors, and was taken for the database:
 * a chain outage was logged as "chain follower: database unavailable". viem's errors are the node's.
 */
export function isDatabaseAway(err: unknown): boolean {
  return isDatabaseUnavailable(err) && !raisedByViem(err);
}

function raisedByViem(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 10; e = (e as { cause?: unknown }).cause, depth++) if (e instanceof BaseError) return true;
  return false;
}

export const deploymentFailed = (chainId: string, step: string, reason: string) =>
  new DomainError('UPSTREAM_REJECTED', `deployment on chain ${chainId} failed at ${step}: ${reason}`);
export const notAnErc3643Token = (address: string) =>
  badRequest(`${address} does not answer the ERC-3643 token interface (identityRegistry, compliance, decimals)`);
export const notTokenAgent = (address: string, agent: string) => badRequest(`the gateway's key ${agent} is not an agent of token ${address}`);
export const notRegistryAgent = (registry: string, agent: string) =>
  badRequest(`the gateway's key ${agent} is not an agent of the token's identity registry ${registry}`);
export const decimalsMismatch = (onChain: number, given: number) => badRequest(`decimals must be ${onChain} as the token answers on chain, got ${given}`);
