import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { ModuleContext } from '../../access/module-services';
import { PageInput } from '../../persistence/pagination';
import { Issuer } from '../issuer';
import { Fund } from './fund.entity';
import { CreateFundInput, FundFilter, FundPage, UpdateFundInput } from './fund.types';

@Resolver(() => Fund)
export class FundResolver {
  @Query(() => FundPage, { description: 'Ops: funds, newest first; filter by issuer.' })
  funds(
    @Arg('filter', () => FundFilter, { nullable: true }) filter: FundFilter | null,
    @Arg('page', () => PageInput, { nullable: true }) page: PageInput | null,
    @Ctx() ctx: ModuleContext<'fund'>,
  ) {
    return ctx.services.fund.list(ctx, filter ?? {}, page ?? {});
  }

  @Query(() => Fund, { description: 'Ops: one fund.' })
  fund(@Arg('id', () => ID) id: string, @Ctx() ctx: ModuleContext<'fund'>): Promise<Fund> {
    return ctx.services.fund.get(ctx, id);
  }

  @Mutation(() => Fund, { description: 'Ops: a new fund (`FN######`) of an issuer.' })
  createFund(@Arg('input', () => CreateFundInput) input: CreateFundInput, @Ctx() ctx: ModuleContext<'fund'>): Promise<Fund> {
    return ctx.services.fund.create(ctx, input);
  }

  @Mutation(() => Fund, { description: 'Ops: change a fund; only the given fields change.' })
  updateFund(@Arg('id', () => ID) id: string, @Arg('input', () => UpdateFundInput) input: UpdateFundInput, @Ctx() ctx: ModuleContext<'fund'>): Promise<Fund> {
    return ctx.services.fund.update(ctx, id, input);
  }

  @FieldResolver(() => String, { description: '`IS######`' })
  issuerId(@Root() fund: Fund): string {
    return fund.issuer.id;
  }

  @FieldResolver(() => Issuer)
  async issuer(@Root() fund: Fund, @Ctx() ctx: ModuleContext<'fund'>): Promise<Issuer> {
    return (await ctx.loaders.byId(Issuer).load(fund.issuer.id))!;
  }
}
