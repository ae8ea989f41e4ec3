import type { Clock } from '../../common/clock';
import { DECIMAL_COLUMN } from '../../common/money';
import { badRequest } from '../../common/errors';
import { documentedId, ID_PREFIXES, shownId } from '../../common/ids';
import type { ServiceContext } from '../../access/service-context';
import { optionalEpochMs, required, requiredDecimal } from '../../common/validate';
import { Investor, investorNotFound, walletInUse } from '../investor';
import type { ShareClassService } from '../share-class';
import { findPrimaryToken } from '../token';
import type { HoldingLedger } from './holding-ledger';
import { userNotFound } from './holding.errors';
import type { HoldingView } from './holding.types';

/**
 * Token holdings as callers see them: read by distributors and ops; ops adjustments. Every change
 * goes through the holding ledger (holding-ledger.ts).
 */
export class HoldingService {
  constructor(
    private readonly shareClasses: ShareClassService,
    private readonly ledger: HoldingLedger,
    private readonly clock: Clock,
  ) {}

  /**
   * `GET /transaction/holdings/user/:userId/shareclass/:shareClassId`. Surface-O callers name
   * the user `US######`; ops and surface R may also use `IN######`. Another distributor's user
   * answers `userId not found`, like a missing one.
   */
  async get(ctx: ServiceContext, userId: unknown, shareClassId: unknown): Promise<HoldingView> {
    ctx.access.requireCaller();
    const raw = documentedId(userId, 'userId', ID_PREFIXES.investorId);
    const investorId = ctx.access.recordId(raw, 'investor');
    const investor = investorId ? await ctx.em.findOne(Investor, { id: investorId }) : null;
    if (!investor || !ctx.access.sees(investor.distributor.id)) throw userNotFound();
    const shareClass = await this.shareClasses.getVisible(ctx, shareClassId);
    const position = await this.ledger.position(ctx.em, investor.id, shareClass, this.clock.now());
    const token = await findPrimaryToken(ctx.em, shareClass.id);
    const wallet = token ? await walletInUse(ctx.em, investor.id, token.chainId) : null;
    return {
      userId: shownId(investor.id, 'investor', 'O'),
      investorId: investor.id,
      shareClassId: shareClass.id,
      tokenBalance: position.balance,
      unlockedBalance: position.unlocked,
      pendingIn: position.pendingIn,
      pendingOut: position.pendingOut,
      walletAddress: wallet?.address ?? null,
      chainId: token?.chainId ?? null,
      tokenName: token?.name ?? null,
      symbol: token?.symbol ?? null,
      decimals: token?.decimals ?? null,
      tokenAddress: token?.contractAddress ?? null,
    };
  }

  /**
   * Ops: book a holding adjustment (a transfer in from a previous register, a correction) with
   * its reason. A positive quantity is a lot settled at `settledAt` (default now; lock-up counts
   * from it); a negative one takes from the oldest lots, never below the tokens promised to open
   * redemptions. Audited (actor), with a `holding.changed` event, in one transaction.
   */
  async adjust(ctx: ServiceContext, input: HoldingAdjustmentInput): Promise<HoldingView> {
    ctx.access.requireOps();
    const investorId = required(input.investorId, 'investorId');
    const shareClassId = required(input.shareClassId, 'shareClassId');
    const quantity = requiredDecimal(input.quantity, 'quantity', DECIMAL_COLUMN);
    if (quantity.isZero()) throw badRequest('quantity must not be 0');
    const reason = required(input.reason, 'reason').trim();
    const now = this.clock.now();
    const settledAt = optionalEpochMs(input.settledAt, 'settledAt') ?? now;
    if (settledAt.getTime() > now.getTime()) throw badRequest('settledAt must not be in the future');
    const recordOf = ctx.access.recordId(investorId, 'investor');
    const investor = recordOf ? await ctx.em.findOne(Investor, { id: recordOf }) : null;
    if (!investor) throw investorNotFound();
    const shareClass = await this.shareClasses.getVisible(ctx, shareClassId);
    await ctx.em.transactional((em) =>
      this.ledger.adjust(em, {
        investorId: investor.id,
        shareClassId: shareClass.id,
        distributorId: investor.distributor.id,
        quantity,
        reason,
        at: now,
        settledAt,
      }),
    );
    return this.get(ctx, investor.id, shareClass.id);
  }
}

export interface HoldingAdjustmentInput {
  investorId?: string | null;
  shareClassId?: string | null;
  quantity?: string | null;
  reason?: string | null;
  settledAt?: Date | null;
}
