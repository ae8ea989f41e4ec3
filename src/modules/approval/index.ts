import { ApprovalResolver } from './approval.resolver';
import { OpsPrincipalResolver } from './ops-principal.resolver';
import { ModuleRequestsResolver } from './module-requests.resolver';
import { ApprovalRequest } from './approval-request.entity';
import { ForcedTransfer } from './forced-transfer.entity';
import { ends, nothing, step } from '../../access/duties';
import { type ModuleManifest } from '../../access/module-manifest';
import type { ApprovalService } from './approval.service';
import type { OpsPrincipalRequests } from './ops-principal-requests';
import type { EligibilityRequests } from './eligibility-requests';
import type { ForcedTransfers } from './forced-transfer';
import { isWalletRecoveryEvent, WALLET_RECOVERY_EVENTS, walletRecoveryWebhookData } from './wallet-recovery-events';
import { namedInPayload } from '../../access/webhook-event-family';

// What other modules use of approval: they import it from here, never from its files.
export { ApprovalStatus } from './approval-request.entity';
export { WALLET_RECOVERY_EVENTS, isWalletRecoveryEvent, walletRecoveryWebhookData } from './wallet-recovery-events';
export type { WalletRecoveryWebhookData } from './wallet-recovery-events';

/** The services the approval module owns in the context (wired in src/services.ts; src/access/module-services.ts). */
declare module '../../access/module-services' {
  interface ServicesByModule {
    approval: {
      approval: ApprovalService;
      opsPrincipalRequests: OpsPrincipalRequests;
      eligibilityRequests: EligibilityRequests;
      forcedTransfers: ForcedTransfers;
    };
  }
}

/** The approval module's manifest, collected by src/modules/manifests.ts. */
export const approvalModule: ModuleManifest<'approval'> = {
  name: 'approval',
  services: { approval: true, opsPrincipalRequests: true, eligibilityRequests: true, forcedTransfers: true },
  resolvers: [ApprovalResolver, OpsPrincipalResolver, ModuleRequestsResolver],
  entities: [ApprovalRequest, ForcedTransfer],
  mutationRoles: {
    /** Four eyes on principals (src/modules/approval/ops-principal-requests.ts): decided by another `admin`. */
    requestOpsPrincipal: 'admin',
    requestOpsRoles: 'admin',
    requestOpsTokenReset: 'admin',
    // Four eyes (src/modules/approval): one principal asks, another decides.
    requestWalletRecovery: 'operator',
    requestHoldingAdjustment: 'operator',
    requestForcedTransfer: 'operator',
    requestWalletUnfreeze: 'operator',
    /** Who may hold a class, and a confirmed NAV's correction (module-requests.resolver.ts): asked by one principal, approved by another. */
    requestEligibilityRules: 'operator',
    requestInvestorCategory: 'operator',
    requestNavCorrection: 'operator',
    approveRequest: 'approver',
    rejectRequest: 'approver',
  },
  queryRoles: {},
  mutationDuties: {
    /** Who may act is itself four eyes (src/modules/approval/ops-principal-requests.ts); no token moves. */
    requestOpsPrincipal: nothing,
    requestOpsRoles: nothing,
    requestOpsTokenReset: nothing,
    requestWalletRecovery: step('walletRecovery'),
    requestHoldingAdjustment: step('holdingAdjustment'),
    requestForcedTransfer: step('forcedTransfer'),
    requestWalletUnfreeze: step('walletUnfreeze'),
    /** Who may hold a class: four eyes on a rule set and on a category upgrade (src/modules/approval/eligibility-requests.ts); no token moves. */
    requestEligibilityRules: nothing,
    requestInvestorCategory: nothing,
    requestNavCorrection: step('navCorrection'),
    approveRequest: ends('walletRecovery', 'holdingAdjustment', 'forcedTransfer', 'navCorrection', 'walletUnfreeze'),
    rejectRequest: nothing,
  },
  /** The webhook events it emits (src/access/webhook-event-family.ts). */
  webhookEvents: { listed: 2, types: WALLET_RECOVERY_EVENTS, logs: isWalletRecoveryEvent, deliveredAs: namedInPayload, data: walletRecoveryWebhookData },
  visibility: {
    /** Four-eyes requests and the audit log are operations' (the audit log's readers: the audit module's queryRoles). */
    ApprovalRequest: 'ops',
    /** What a request binds (token, wallets, quantities): parts of the request. */
    ApprovalEffect: 'part',
    ForcedTransferEffect: 'part',
    WalletRecoveryEffect: 'part',
    RecoveredToken: 'part',
    HoldingAdjustmentEffect: 'part',
    EligibilityRulesEffect: 'part',
    InvestorCategoryEffect: 'part',
    WalletUnfreezeEffect: 'part',
  },
};
