import type { Access } from '../../access/access';
import { badRequest } from '../../common/errors';
import { documentedId, ID_PREFIXES } from '../../common/ids';
import { optional } from '../../common/validate';

/** What both one-step placements name: who, which share class, which wallet (one-step.service.ts). */
export interface PlacementInput {
  distributorId?: string | null;
  /** `IN######` on surface R. */
  investorId?: string | null;
  /** `US######` on surface O. */
  userId?: string | null;
  shareClassId?: string | null;
  chainId?: string | null;
  walletAddress?: string | null;
}

const CHAIN_ID = /^\d{1,20}$/;
const WALLET = /^0x[0-9a-fA-F]{40}$/;

/**
 * The ids of a placement as the caller's surface names them: `PT`/`US` on surface O, `DT`/`IN`
 * on surface R (ops may use either). An id of the other surface's form is simply not found.
 */
export function readIds(access: Access, input: PlacementInput) {
  const surface = access.surface;
  const investorField = surface === 'O' || (surface === null && input.userId != null && input.investorId == null) ? 'userId' : 'investorId';
  const distributorId = documentedId(input.distributorId, 'distributorId', ID_PREFIXES.distributorId);
  const investorId = documentedId(investorField === 'userId' ? input.userId : input.investorId, investorField, ID_PREFIXES.investorId);
  const shareClassId = documentedId(input.shareClassId, 'shareClassId', ID_PREFIXES.shareClassId);
  return { distributorId: access.recordId(distributorId, 'distributor'), investorId: access.recordId(investorId, 'investor'), shareClassId };
}

export function readDelivery(input: PlacementInput) {
  const chainId = optional(input.chainId, 'chainId');
  const walletAddress = optional(input.walletAddress, 'walletAddress');
  if (chainId !== undefined && !CHAIN_ID.test(chainId)) throw badRequest('chainId must be a numeric EVM chain id');
  if (walletAddress !== undefined && !WALLET.test(walletAddress)) throw badRequest('walletAddress must be a 0x-prefixed 20-byte hex address');
  return { chainId, walletAddress };
}
