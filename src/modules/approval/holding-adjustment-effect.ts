import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { badRequest } from '../../common/errors';
import { Dec, decimalString } from '../../common/money';
import { Holding } from '../holding';

/** A holding adjustment's arguments as the approval request stores them. */
export interface HoldingAdjustmentArgs {
  investorId: string;
  shareClassId: string;
  quantity: string;
  reason: string;
  /** Epoch ms, or null for the time it runs. */
  settledAt: number | null;
}

/**
 * What a holding adjustment will do, bound when it is requested (approval-effect.ts): the holding
 * (investor, share class), its balance before, the delta and the balance after. An adjustment books
 * the register only (a transfer in from a previous register, a correction): no token moves on chain,
 * so the effect names no wallet and no token (`onChain: null`).
 */
export interface HoldingAdjustmentEffect {
  kind: 'holding_adjustment';
  version: 1;
  investorId: string;
  shareClassId: string;
  /** The delta (decimal string, signed). */
  quantity: string;
  balanceBefore: string;
  balanceAfter: string;
  settledAt: number | null;
  onChain: null;
}

/**
 * The effect of adjusting the holding by `args`, computed from the world now: the function that binds
 * a request's effect and, at approval, recomputes it to compare. `lock`: in the approver's
 * transaction, the holding row is locked until it commits, so the balance compared is the one the
 * adjustment books against.
 */
export async function holdingAdjustmentEffect(em: EntityManager, args: HoldingAdjustmentArgs, lock = false): Promise<HoldingAdjustmentEffect> {
  const holding = await em.findOne(
    Holding,
    { investor: args.investorId, shareClass: args.shareClassId },
    lock ? { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true } : {},
  );
  const before = new Dec(holding?.balance ?? '0');
  const after = before.plus(args.quantity);
  if (after.isNegative()) throw badRequest('quantity exceeds holdings');
  return {
    kind: 'holding_adjustment',
    version: 1,
    investorId: args.investorId,
    shareClassId: args.shareClassId,
    quantity: args.quantity,
    balanceBefore: decimalString(before),
    balanceAfter: decimalString(after),
    settledAt: args.settledAt,
    onChain: null,
  };
}
