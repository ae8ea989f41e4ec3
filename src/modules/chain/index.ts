import { ChainTransactionResolver } from './chain.resolver';
import { ChainInfoResolver } from './chain-info.resolver';
import { ChainSetup, ChainSigner, ChainTransaction } from './chain-transaction.entity';
import { ChainComplianceModule, ChainIntentSequence } from './compliance-module.entity';
import { ChainFollowCursor, ChainFollowedBlock, ChainMovement, ReconciliationRun } from './chain-movement.entity';
import { type ModuleManifest } from '../../access/module-manifest';
import type { ChainService } from './chain.service';
import type { TokenLedger } from '../../ledger/token-ledger';

// What other modules use of chain: they import it from here, never from its files.
export { ChainMovement, ChainMovementKind } from './chain-movement.entity';
export { ChainSetup, ChainTransaction, ChainTxStatus, FINAL_TX_STATUSES } from './chain-transaction.entity';
export { chainAway, isChainUnreachable } from './chain.errors';
export { ChainService } from './chain.service';
export type { TokenOnChain } from './chain.service';
export { ChainHandle, Chains } from './chains';
export type { ComplianceRules } from './compliance-modules';
export { IDENTITY_ABI, IDENTITY_REGISTRY_ABI, KYC_CLAIM_TOPIC, ONCHAINID, TOKEN_ABI } from './contracts';
export type { TxOutcome } from './outcomes';

/** The services the chain module owns in the context (wired in src/services.ts; src/access/module-services.ts). */
declare module '../../access/module-services' {
  interface ServicesByModule {
    chain: {
      chain: ChainService | null;
      tokenLedger: TokenLedger | null;
    };
  }
}

/** The chain module's manifest, collected by src/modules/manifests.ts. */
export const chainModule: ModuleManifest<'chain'> = {
  name: 'chain',
  services: { chain: true, tokenLedger: true },
  resolvers: [ChainTransactionResolver, ChainInfoResolver],
  entities: [
    ChainTransaction,
    ChainMovement,
    ChainFollowCursor,
    ChainFollowedBlock,
    ReconciliationRun,
    ChainSigner,
    ChainSetup,
    ChainComplianceModule,
    ChainIntentSequence,
  ],
  mutationRoles: {},
  queryRoles: {},
  mutationDuties: {},
  visibility: {
    /** What the chain follower saw is operations' work. */
    ChainMovement: 'ops',
    /** The chains the gateway is configured for, and whether it writes to them: operations' setup. */
    ChainInfo: 'ops',
  },
};
