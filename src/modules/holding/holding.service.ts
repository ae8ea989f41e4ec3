import { LockMode } from '@mikro-orm/core';
import type { Clock } from '../../common/clock';
import { badRequest } from '../../common/errors';
import { alias, documentedId, ID_PREFIXES } from '../../common/ids';
import { appendEvent } from '../../events/event-log';
import type { DealingService } from '../dealing/dealing.service';
import { investorNotFound } from '../investor/investor.errors';
import { reservedTokens } from '../order/one-step.service';
import { ShareClass } from '../share-class/share-class.entity';
import { LotSource } from './holding-lot.entity';
import { addLot, takeFromLots } from './holding-lots';
import { DECIMAL_COLUMN, Dec, decimalString } from '../../common/money';
import { walletInUse } from '../investor/investor-wallet.service';
import type { ServiceContext } from '../../common/service-context';
import { optionalEpochMs, required, requiredDecimal } from '../../common/validate';
import { Investor } from '../investor/investor.entity';
import type { ShareClassService } from '../share-class/share-class.service';
import { Holding } from './holding.entity';
import { userNotFound } from './holding.errors';
import type { HoldingView } from './holding.types';

/**
 * Token holdings: read by distributors; changed when one-step orders settle (OneStepOrderService)
 * and by ops holding adjustments (here).
 */
export class HoldingService {
  constructor(
    private readonly shareClasses: ShareClassService,
    private readonly dealing: DealingService,
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
    const holding = await ctx.em.findOne(Holding, { investor: investor.id, shareClass: shareClass.id });
    const token = await this.shareClasses.primaryToken(ctx, shareClass.id);
    const wallet = token ? await walletInUse(ctx.em, investor.id, token.chainId) : null;
    const balance = holding?.balance ?? '0';
    return {
      userId: alias(investor.id, 'US'),
      investorId: investor.id,
      shareClassId: shareClass.id,
      tokenBalance: decimalString(balance),
      unlockedBalance: decimalString(await this.dealing.unlockedOf(ctx.em, shareClass, { investorId: investor.id, balance })),
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
    await ctx.em.transactional(async (em) => {
      let holding = await em.findOne(Holding, { investor: investor.id, shareClass: shareClass.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      holding ??= em.create(Holding, { investor: em.getReference(Investor, investor.id), shareClass: em.getReference(ShareClass, shareClass.id), balance: '0' });
      const before = new Dec(holding.balance);
      if (quantity.isPositive()) {
        addLot(em, { investorId: investor.id, shareClassId: shareClass.id, quantity, settledAt, source: LotSource.adjustment, reason });
      } else {
        const reserved = await reservedTokens(em, investor.id, shareClass.id);
        if (quantity.abs().greaterThan(before.minus(reserved))) throw badRequest('quantity exceeds holdings');
        await takeFromLots(em, investor.id, shareClass.id, quantity.abs());
      }
      holding.balance = decimalString(before.plus(quantity));
      appendEvent(em, {
        type: 'holding.changed',
        aggregateType: 'holding',
        aggregateId: `${investor.id}:${shareClass.id}`,
        distributorId: investor.distributor.id,
        occurredAt: now,
        payload: { investorId: investor.id, shareClassId: shareClass.id, adjustment: true, reason, settledAt: settledAt.getTime(), change: decimalString(quantity), balance: holding.balance },
      });
      await em.flush();
    });
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
