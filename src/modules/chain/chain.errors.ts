import { badRequest, DomainError } from '../../common/errors';

export const chainNotWritable = (chainId: string) => badRequest(`chain ${chainId} is not configured with an agent key`);
export const chainNotReadable = (chainId: string) => badRequest(`chain ${chainId} is not configured`);
export const chainUnavailable = (chainId: string, detail: string) => new DomainError('UPSTREAM_UNAVAILABLE', `chain ${chainId} is unreachable: ${detail}`);
export const deploymentFailed = (chainId: string, step: string, reason: string) => new DomainError('UPSTREAM_REJECTED', `deployment on chain ${chainId} failed at ${step}: ${reason}`);
export const notAnErc3643Token = (address: string) => badRequest(`${address} does not answer the ERC-3643 token interface (identityRegistry, compliance, decimals)`);
export const notTokenAgent = (address: string, agent: string) => badRequest(`the gateway's key ${agent} is not an agent of token ${address}`);
export const notRegistryAgent = (registry: string, agent: string) => badRequest(`the gateway's key ${agent} is not an agent of the token's identity registry ${registry}`);
export const decimalsMismatch = (onChain: number, given: number) => badRequest(`decimals must be ${onChain} as the token answers on chain, got ${given}`);
