import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GatewayContext } from '../../access/graphql-context';
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
    @Ctx() ctx: GatewayContext,
  ) {
    return ctx.services.fund.list(ctx, filter ?? {}, page ?? {});
  }

  @Query(() => Fund, { description: 'Ops: one fund.' })
  fund(@Arg('id', () => ID) id: string, @Ctx() ctx: GatewayContext): Promise<Fund> {
    return ctx.services.fund.get(ctx, id);
  }

  @Mutation(() => Fund, { description: 'Ops: a new fund (`FN######`) of an issuer.' })
  createFund(@Arg('input', () => CreateFundInput) input: CreateFundInput, @Ctx() ctx: GatewayContext): Promise<Fund> {
    return ctx.services.fund.create(ctx, input);
  }

  @Mutation(() => Fund, { description: 'Ops: change a fund; only the given fields change.' })
  updateFund(@Arg('id', () => ID) id: string, @Arg('input', () => UpdateFundInput) input: UpdateFundInput, @Ctx() ctx: GatewayContext): Promise<Fund> {
    return ctx.services.fund.update(ctx, id, input);
  }

  @FieldResolver(() => String, { description: '`IS######`' })
  issuerId(@Root() fund: Fund): string {
    return fund.issuer.id;
  }

  @FieldResolver(() => Issuer)
  async issuer(@Root() fund: Fund, @Ctx() ctx: GatewayContext): Promise<Issuer> {
    return (await ctx.loaders.byId(Issuer).load(fund.issuer.id))!;
  }
}
