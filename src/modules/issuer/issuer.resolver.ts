import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { ModuleContext } from '../../access/module-services';
import { PageInput } from '../../persistence/pagination';
import { Issuer } from './issuer.entity';
import { CreateIssuerInput, IssuerFilter, IssuerPage, UpdateIssuerInput } from './issuer.types';

@Resolver(() => Issuer)
export class IssuerResolver {
  @Query(() => IssuerPage, { description: 'Ops: issuers, newest first.' })
  issuers(
    @Arg('filter', () => IssuerFilter, { nullable: true }) filter: IssuerFilter | null,
    @Arg('page', () => PageInput, { nullable: true }) page: PageInput | null,
    @Ctx() ctx: ModuleContext<'issuer'>,
  ) {
    return ctx.services.issuer.list(ctx, filter ?? {}, page ?? {});
  }

  @Query(() => Issuer, { description: 'Ops: one issuer.' })
  issuer(@Arg('id', () => ID) id: string, @Ctx() ctx: ModuleContext<'issuer'>): Promise<Issuer> {
    return ctx.services.issuer.get(ctx, id);
  }

  @Mutation(() => Issuer, { description: 'Ops: a new issuer (`IS######`).' })
  createIssuer(@Arg('input', () => CreateIssuerInput) input: CreateIssuerInput, @Ctx() ctx: ModuleContext<'issuer'>): Promise<Issuer> {
    return ctx.services.issuer.create(ctx, input);
  }

  @Mutation(() => Issuer, { description: 'Ops: change an issuer; only the given fields change.' })
  updateIssuer(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdateIssuerInput) input: UpdateIssuerInput,
    @Ctx() ctx: ModuleContext<'issuer'>,
  ): Promise<Issuer> {
    return ctx.services.issuer.update(ctx, id, input);
  }
}
