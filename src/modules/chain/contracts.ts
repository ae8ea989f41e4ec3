import type { Abi, Hex } from 'viem';
import { AGENT_ROLE_ABI } from './abis/agent-role';
import { COUNTRY_ALLOW_MODULE_ABI } from './abis/country-allow-module';
import { COUNTRY_RESTRICT_MODULE_ABI } from './abis/country-restrict-module';
import { MAX_BALANCE_MODULE_ABI } from './abis/max-balance-module';
import { MODULE_PROXY_ABI } from './abis/module-proxy';
import { SUPPLY_LIMIT_MODULE_ABI } from './abis/supply-limit-module';
import { CLAIM_ISSUER_ABI } from './abis/claim-issuer';
import { CTR_ABI } from './abis/claim-topics-registry';
import { CTR_PROXY_ABI } from './abis/claim-topics-registry-proxy';
import { ID_FACTORY_ABI } from './abis/id-factory';
import { IDENTITY_ABI } from './abis/identity';
import { IDENTITY_IA_ABI } from './abis/identity-implementation-authority';
import { IDENTITY_PROXY_ABI } from './abis/identity-proxy';
import { IDENTITY_REGISTRY_ABI } from './abis/identity-registry';
import { IDENTITY_REGISTRY_PROXY_ABI } from './abis/identity-registry-proxy';
import { IDENTITY_REGISTRY_STORAGE_ABI } from './abis/identity-registry-storage';
import { IDENTITY_REGISTRY_STORAGE_PROXY_ABI } from './abis/identity-registry-storage-proxy';
import { MODULAR_COMPLIANCE_ABI } from './abis/modular-compliance';
import { MODULAR_COMPLIANCE_PROXY_ABI } from './abis/modular-compliance-proxy';
import { TOKEN_ABI } from './abis/token';
import { TOKEN_PROXY_ABI } from './abis/token-proxy';
import { TREX_FACTORY_ABI } from './abis/trex-factory';
import { IA_ABI } from './abis/trex-implementation-authority';
import { TIR_ABI } from './abis/trusted-issuers-registry';
import { TIR_PROXY_ABI } from './abis/trusted-issuers-registry-proxy';

/*
 * The ERC-3643 (T-REX 4.1.6) and ONCHAINID (2.2.1) contracts, as their authors published them
 * (compiled artifacts of the npm packages, GPL-3.0): the gateway deploys them unchanged and talks
 * to them through their ABIs. The ABIs are generated into ./abis as `const` (`npm run abis`), so
 * viem checks every call's function name and arguments at compile time; the bytecode is large and
 * is loaded from the packages when the process starts.
 */

/** A contract the gateway deploys: its ABI (typed) and its creation bytecode. */
export interface Deployable<A extends Abi> {
  abi: A;
  bytecode: Hex;
}

type Artifacts = Record<string, { bytecode: Hex }>;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the packages are CommonJS bundles of JSON artifacts with no types: required, typed by hand
const trex = (require('@tokenysolutions/t-rex') as { contracts: Artifacts }).contracts;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
const onchainId = (require('@onchain-id/solidity') as { contracts: Artifacts }).contracts;

const deployable = <A extends Abi>(abi: A, artifact: { bytecode: Hex }): Deployable<A> => ({ abi, bytecode: artifact.bytecode });

export const T_REX = {
  Token: deployable(TOKEN_ABI, trex.Token),
  IdentityRegistry: deployable(IDENTITY_REGISTRY_ABI, trex.IdentityRegistry),
  IdentityRegistryStorage: deployable(IDENTITY_REGISTRY_STORAGE_ABI, trex.IdentityRegistryStorage),
  ClaimTopicsRegistry: deployable(CTR_ABI, trex.ClaimTopicsRegistry),
  TrustedIssuersRegistry: deployable(TIR_ABI, trex.TrustedIssuersRegistry),
  ModularCompliance: deployable(MODULAR_COMPLIANCE_ABI, trex.ModularCompliance),
  TREXImplementationAuthority: deployable(IA_ABI, trex.TREXImplementationAuthority),
  TREXFactory: deployable(TREX_FACTORY_ABI, trex.TREXFactory),
  TokenProxy: deployable(TOKEN_PROXY_ABI, trex.TokenProxy),
  IdentityRegistryProxy: deployable(IDENTITY_REGISTRY_PROXY_ABI, trex.IdentityRegistryProxy),
  IdentityRegistryStorageProxy: deployable(IDENTITY_REGISTRY_STORAGE_PROXY_ABI, trex.IdentityRegistryStorageProxy),
  ClaimTopicsRegistryProxy: deployable(CTR_PROXY_ABI, trex.ClaimTopicsRegistryProxy),
  TrustedIssuersRegistryProxy: deployable(TIR_PROXY_ABI, trex.TrustedIssuersRegistryProxy),
  ModularComplianceProxy: deployable(MODULAR_COMPLIANCE_PROXY_ABI, trex.ModularComplianceProxy),
  // Compliance modules (upgradeable: an implementation behind a ModuleProxy, `initialize`d), one of each per chain.
  ModuleProxy: deployable(MODULE_PROXY_ABI, trex.ModuleProxy),
  CountryAllowModule: deployable(COUNTRY_ALLOW_MODULE_ABI, trex.CountryAllowModule),
  CountryRestrictModule: deployable(COUNTRY_RESTRICT_MODULE_ABI, trex.CountryRestrictModule),
  MaxBalanceModule: deployable(MAX_BALANCE_MODULE_ABI, trex.MaxBalanceModule),
  SupplyLimitModule: deployable(SUPPLY_LIMIT_MODULE_ABI, trex.SupplyLimitModule),
};

export const ONCHAINID = {
  Identity: deployable(IDENTITY_ABI, onchainId.Identity),
  ImplementationAuthority: deployable(IDENTITY_IA_ABI, onchainId.ImplementationAuthority),
  IdentityProxy: deployable(IDENTITY_PROXY_ABI, onchainId.IdentityProxy),
  ClaimIssuer: deployable(CLAIM_ISSUER_ABI, onchainId.ClaimIssuer),
  IdFactory: deployable(ID_FACTORY_ABI, onchainId.Factory),
};

/** The ABIs the gateway calls: the ERC-3643 interfaces, and an identity's ERC-734/735 keys and claims. */
export {
  AGENT_ROLE_ABI,
  CLAIM_ISSUER_ABI,
  CTR_ABI,
  IA_ABI,
  ID_FACTORY_ABI,
  IDENTITY_ABI,
  IDENTITY_REGISTRY_ABI,
  IDENTITY_REGISTRY_STORAGE_ABI,
  MODULAR_COMPLIANCE_ABI,
  TIR_ABI,
  TOKEN_ABI,
  TREX_FACTORY_ABI,
};

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
