import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { ModuleContext } from '../../access/module-services';
import { DistributionPolicy, IncomePayment, IncomeTreatment } from './distribution-policy.entity';
import { Distribution, DistributionEntitlement } from './distribution.entity';
import { DeclareDistributionInput, DistributionPreviewView, IncomeEntryView } from './distribution.types';
import { incomeHistory } from './income-history';

@Resolver()
export class DistributionResolver {
  @Query(() => DistributionPolicy, { description: "A share class's income policy (accumulating when ops never set one)." })
  distributionPolicy(@Arg('shareClassId', () => ID) shareClassId: string, @Ctx() ctx: ModuleContext<'distribution'>) {
    return ctx.services.distribution.policyOf(ctx, shareClassId);
  }

  @Mutation(() => DistributionPolicy, {
    description: 'Ops: a share class accumulates its income, or distributes it by reinvest (new tokens at the pay date’s NAV) or cash.',
  })
  setDistributionPolicy(
    @Arg('shareClassId', () => ID) shareClassId: string,
    @Arg('treatment', () => IncomeTreatment) treatment: IncomeTreatment,
    @Arg('payment', () => IncomePayment, { nullable: true }) payment: IncomePayment | null,
    @Ctx() ctx: ModuleContext<'distribution'>,
  ) {
    return ctx.services.distribution.setPolicy(ctx, shareClassId, treatment, payment);
  }

  @Query(() => DistributionPreviewView, { description: 'Ops: the entitlements a declaration would compute now from the daily closing balances.' })
  distributionPreview(@Arg('input', () => DeclareDistributionInput) input: DeclareDistributionInput, @Ctx() ctx: ModuleContext<'distribution'>) {
    return ctx.services.distribution.preview(ctx, input);
  }

  @Mutation(() => Distribution, {
    description: 'Ops: declare a distribution; each holder’s entitlement is computed from the daily closing balances and frozen.',
  })
  declareDistribution(@Arg('input', () => DeclareDistributionInput) input: DeclareDistributionInput, @Ctx() ctx: ModuleContext<'distribution'>) {
    return ctx.services.distribution.declare(ctx, input);
  }

  @Mutation(() => Distribution, {
    description:
      'Ops: pay a declared distribution: cash recorded, or reinvested (batchMint on chain; the register only for a class without a token). Idempotent: a second run pays nothing.',
  })
  payDistribution(@Arg('id', () => ID) id: string, @Ctx() ctx: ModuleContext<'distribution'>) {
    return ctx.services.distribution.pay(ctx, id);
  }

  @Mutation(() => Distribution, {
    description:
      'Ops: send the failed rows of a paid or paying reinvest distribution again (new batchMint intents), once their cause is fixed; a row still without a whitelisted wallet stays failed. Idempotent: rows already sent again are not sent twice.',
  })
  retryDistributionPayments(@Arg('id', () => ID) id: string, @Ctx() ctx: ModuleContext<'distribution'>) {
    return ctx.services.distribution.retryFailed(ctx, id);
  }

  @Query(() => [Distribution], { description: "Ops: a share class's distributions, newest first." })
  distributions(@Arg('shareClassId', () => ID) shareClassId: string, @Ctx() ctx: ModuleContext<'distribution'>) {
    ctx.access.requireOps();
    return ctx.em.find(Distribution, { shareClassId }, { orderBy: { id: 'desc' } });
  }

  @Query(() => [DistributionEntitlement], { description: "Ops: a distribution's entitlements and their payment." })
  distributionEntitlements(@Arg('id', () => ID) id: string, @Ctx() ctx: ModuleContext<'distribution'>) {
    ctx.access.requireOps();
    return ctx.em.find(DistributionEntitlement, { distributionId: id }, { orderBy: { investorId: 'asc' } });
  }

  @Query(() => [IncomeEntryView], { description: "An investor's income history (ops: any investor; a distributor: its own investors)." })
  incomeHistory(@Arg('investorId', () => ID) investorId: string, @Ctx() ctx: ModuleContext<'distribution'>) {
    return incomeHistory(ctx, investorId);
  }
}
