import type { ServiceContext } from '../../access/service-context';
import { Investor } from '../investor';
import { Distribution, DistributionEntitlement } from './distribution.entity';
import type { IncomeEntryView } from './distribution.types';
import { notFound } from '../../common/errors';

/**
 * An investor's income, newest pay date first: ops see every investor's, a distributor its own
 * investors' only (another's answers as a missing investor).
 */
export async function incomeHistory(ctx: ServiceContext, investorIdIn: string): Promise<IncomeEntryView[]> {
  ctx.access.requireCaller();
  const investorId = ctx.access.recordId(investorIdIn, 'investor') ?? investorIdIn;
  const investor = await ctx.em.findOne(Investor, { id: investorId });
  if (!investor || !(ctx.access.isOps || ctx.access.sees(investor.distributor.id))) throw notFound('Investor not found');
  const rows = await ctx.em.find(DistributionEntitlement, { investorId }, { orderBy: { distributionId: 'desc' } });
  const ds = new Map((await ctx.em.find(Distribution, { id: { $in: rows.map((r) => r.distributionId) } })).map((d) => [String(d.id), d]));
  return rows
    .map((r) => {
      const d = ds.get(String(r.distributionId))!;
      return {
        distributionId: String(d.id),
        investorId: r.investorId,
        distributorId: r.distributorId,
        shareClassId: d.shareClassId,
        periodFrom: d.periodFrom,
        periodTo: d.periodTo,
        payDate: d.payDate,
        payment: d.payment,
        currency: d.currency,
        distributionStatus: d.status,
        status: r.status,
        tokenDays: r.tokenDays,
        gross: r.gross,
        amount: r.amount ?? null,
        tokens: r.tokens ?? null,
        transferHash: r.transferHash ?? null,
        failureReason: r.failureReason ?? null,
        paidAt: r.paidAt ?? null,
      };
    })
    .sort((a, b) => (a.payDate < b.payDate ? 1 : a.payDate > b.payDate ? -1 : 0));
}
