import type { Abi, Hex } from 'viem';

/*
 * The ERC-3643 (T-REX 4.1.6) and ONCHAINID (2.2.1) contracts, as their authors published them
 * (compiled artifacts of the npm packages, GPL-3.0): the gateway deploys them unchanged and talks
 * to them through their ABIs.
 */

interface Artifact {
  abi: Abi;
  bytecode: Hex;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const trex = require('@tokenysolutions/t-rex') as { contracts: Record<string, Artifact>; interfaces: Record<string, Artifact> };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const onchainId = require('@onchain-id/solidity') as { contracts: Record<string, Artifact>; interfaces: Record<string, Artifact> };

const pick = (a: Artifact): Artifact => ({ abi: a.abi, bytecode: a.bytecode });

export const T_REX = {
  Token: pick(trex.contracts.Token),
  IdentityRegistry: pick(trex.contracts.IdentityRegistry),
  IdentityRegistryStorage: pick(trex.contracts.IdentityRegistryStorage),
  ClaimTopicsRegistry: pick(trex.contracts.ClaimTopicsRegistry),
  TrustedIssuersRegistry: pick(trex.contracts.TrustedIssuersRegistry),
  ModularCompliance: pick(trex.contracts.ModularCompliance),
  TREXImplementationAuthority: pick(trex.contracts.TREXImplementationAuthority),
  TokenProxy: pick(trex.contracts.TokenProxy),
  IdentityRegistryProxy: pick(trex.contracts.IdentityRegistryProxy),
  IdentityRegistryStorageProxy: pick(trex.contracts.IdentityRegistryStorageProxy),
  ClaimTopicsRegistryProxy: pick(trex.contracts.ClaimTopicsRegistryProxy),
  TrustedIssuersRegistryProxy: pick(trex.contracts.TrustedIssuersRegistryProxy),
  ModularComplianceProxy: pick(trex.contracts.ModularComplianceProxy),
};

export const ONCHAINID = {
  Identity: pick(onchainId.contracts.Identity),
  ImplementationAuthority: pick(onchainId.contracts.ImplementationAuthority),
  IdentityProxy: pick(onchainId.contracts.IdentityProxy),
  ClaimIssuer: pick(onchainId.contracts.ClaimIssuer),
};

/** The ABIs the gateway calls: the ERC-3643 interfaces, and an identity's ERC-734/735 keys and claims. */
export const TOKEN_ABI = trex.contracts.Token.abi;
export const IDENTITY_REGISTRY_ABI = trex.contracts.IdentityRegistry.abi;
export const IDENTITY_REGISTRY_STORAGE_ABI = trex.contracts.IdentityRegistryStorage.abi;
export const IDENTITY_ABI = onchainId.contracts.Identity.abi;
export const CLAIM_ISSUER_ABI = onchainId.contracts.ClaimIssuer.abi;
export const AGENT_ROLE_ABI = trex.contracts.AgentRole.abi;
export const CTR_ABI = trex.contracts.ClaimTopicsRegistry.abi;
export const TIR_ABI = trex.contracts.TrustedIssuersRegistry.abi;
export const IA_ABI = trex.contracts.TREXImplementationAuthority.abi;

/**
 * The claim topic of the gateway's KYC claims (ERC-735 topics are plain numbers; T-REX's own
 * fixtures use 1 for KYC). Every token the gateway deploys requires it, from its claim issuer.
 */
export const KYC_CLAIM_TOPIC = 1n;
/** ERC-734 key purposes. */
export const MANAGEMENT_KEY = 1n;
export const CLAIM_SIGNER_KEY = 3n;
/** ECDSA keys (ERC-734 key type 1). */
export const ECDSA_KEY_TYPE = 1n;
