import { hasRole, type OpsRole } from './principal';

/**
 * Which role an ops principal needs for each root field, written once and applied to every door
 * (GraphQL over HTTP and graphql-ws, the REST facade's in-process execution) by
 * `guardOpsRoles` (src/transports/graphql/ops-guard.ts). Every mutation has a rule: the schema does not
 * build otherwise, so a new mutation is nobody's until someone decides whose it is. Queries and
 * subscriptions are reads (`viewer`, which every ops role has) unless named here.
 *
 * The rule speaks of ops callers only: what a distributor may do is its services' business
 * (`requireOps`, the tenant rules), and public fields stay public.
 */
export const OPS_MUTATION_ROLES: Record<string, OpsRole> = {
  // Credentials of distributors, and ops tokens.
  issueApiCredential: 'operator',
  rotateApiCredential: 'operator',
  revokeApiCredential: 'operator',
  /** Each principal rotates its own token. */
  rotateOpsToken: 'viewer',
  /** A new `viewer` principal only; every other role is asked for (requestOpsPrincipal). */
  issueOpsToken: 'admin',
  /** Ending credentials stays immediate: one admin, no approval. */
  revokeOpsToken: 'admin',
  /** Four eyes on principals (src/modules/approval/ops-principal-requests.ts): decided by another `admin`. */
  requestOpsPrincipal: 'admin',
  requestOpsRoles: 'admin',
  requestOpsTokenReset: 'admin',
  /** Surface O's token endpoints: public, an ops caller gains nothing there. */
  issueAccessToken: 'viewer',
  refreshAccessToken: 'viewer',

  createDistributor: 'operator',
  updateDistributor: 'operator',
  addDistributorHost: 'operator',
  bindDistributorHost: 'operator',
  removeDistributorHost: 'operator',
  setDistributorWallet: 'operator',
  grantShareClass: 'operator',
  revokeShareClass: 'operator',
  setDealingCalendar: 'operator',
  addDealingHolidays: 'operator',
  removeDealingHolidays: 'operator',
  createFund: 'operator',
  updateFund: 'operator',
  createIssuer: 'operator',
  updateIssuer: 'operator',
  publishNav: 'operator',
  createShareClass: 'operator',
  updateShareClass: 'operator',
  deployToken: 'operator',
  createToken: 'operator',
  updateToken: 'operator',

  registerInvestor: 'operator',
  grantInvestorShareClass: 'operator',
  revokeInvestorShareClass: 'operator',
  registerUser: 'operator',
  addInvestorWallet: 'operator',
  whitelistInvestorWallet: 'operator',
  /** Freezing a compromised wallet stays immediate: one operator, no approval. */
  removeInvestorWallet: 'operator',

  placeOneStepSubscription: 'operator',
  placeOneStepRedemption: 'operator',
  cancelOneStepOrder: 'operator',
  acceptOneStepOrder: 'operator',
  rejectOneStepOrder: 'operator',
  settleOneStepOrder: 'operator',
  failOneStepOrder: 'operator',
  createTwoStepSubscription: 'operator',
  pushTwoStepSubscription: 'operator',
  cancelTwoStepSubscription: 'operator',
  recordSupplyOutcome: 'operator',
  settleDealingDate: 'operator',
  setDistributionPolicy: 'operator',
  declareDistribution: 'operator',
  payDistribution: 'operator',
  retryDistributionPayments: 'operator',

  registerWebhook: 'operator',
  testWebhook: 'operator',
  rotateWebhookSecret: 'operator',
  setWebhookStatus: 'operator',
  redeliverWebhookEvent: 'operator',
  recoverWebhookDeliveries: 'operator',

  // Four eyes (src/modules/approval): one principal asks, another decides.
  requestWalletRecovery: 'operator',
  requestHoldingAdjustment: 'operator',
  requestNavCorrection: 'operator',
  requestForcedTransfer: 'operator',
  approveRequest: 'approver',
  rejectRequest: 'approver',
};

/** Reads that need more than `viewer`. */
export const OPS_QUERY_ROLES: Record<string, OpsRole> = {
  auditLog: 'approver',
};

/** The role-bound root fields `roles` may call, by name: the console shows only these actions. */
export function opsFieldsAllowed(roles: readonly OpsRole[]): string[] {
  return Object.entries({ ...OPS_MUTATION_ROLES, ...OPS_QUERY_ROLES }).flatMap(([field, role]) => (hasRole(roles, role) ? [field] : []));
}
