import { alias } from '../../common/ids';
import { decimalString } from '../../common/money';
import { walletInUse } from '../investor/investor-wallet.service';
import type { ServiceContext } from '../../common/service-context';
import { required } from '../../common/validate';
import { Investor } from '../investor/investor.entity';
import type { ShareClassService } from '../share-class/share-class.service';
import { Holding } from './holding.entity';
import { userNotFound } from './holding.errors';
import type { HoldingView } from './holding.types';

/** Reads of token holdings; holdings change only when one-step orders settle (OneStepOrderService). */
export class HoldingService {
  constructor(private readonly shareClasses: ShareClassService) {}

  /**
   * `GET /transaction/holdings/user/:userId/shareclass/:shareClassId`. Surface-O callers name
   * the user `US######`; ops and surface R may also use `IN######`. Another distributor's user
   * answers `userId not found`, like a missing one.
   */
  async get(ctx: ServiceContext, userId: unknown, shareClassId: unknown): Promise<HoldingView> {
    ctx.access.requireCaller();
    const raw = required(userId, 'userId');
    const investorId = ctx.access.recordId(raw, 'investor');
    const investor = investorId ? await ctx.em.findOne(Investor, { id: investorId }) : null;
    if (!investor || !ctx.access.sees(investor.distributor.id)) throw userNotFound();
    const shareClass = await this.shareClasses.getVisible(ctx, shareClassId);
    const holding = await ctx.em.findOne(Holding, { investor: investor.id, shareClass: shareClass.id });
    const token = await this.shareClasses.primaryToken(ctx, shareClass.id);
    const wallet = token ? await walletInUse(ctx.em, investor.id, token.chainId) : null;
    return {
      userId: alias(investor.id, 'US'),
      investorId: investor.id,
      shareClassId: shareClass.id,
      tokenBalance: decimalString(holding?.balance ?? '0'),
      walletAddress: wallet?.address ?? null,
      chainId: token?.chainId ?? null,
      tokenName: token?.name ?? null,
      symbol: token?.symbol ?? null,
      decimals: token?.decimals ?? null,
      tokenAddress: token?.contractAddress ?? null,
    };
  }
}
