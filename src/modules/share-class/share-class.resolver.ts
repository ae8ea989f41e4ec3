import type { EntityRecord } from '../../persistence/read-record';
import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { ModuleContext } from '../../access/module-services';
import { PageInput } from '../../persistence/pagination';
import { Fund } from '../fund';
import { ShareClass } from './share-class.entity';
import { navToleranceBps } from './nav-tolerance';
import { CreateShareClassInput, ShareClassFilter, ShareClassPage, UpdateShareClassInput } from './share-class.types';

@Resolver(() => ShareClass)
export class ShareClassResolver {
  @Query(() => [ShareClass], { description: 'Share classes visible to the caller: all for ops, granted ones for a distributor.' })
  shareClasses(@Ctx() ctx: ModuleContext<'share-class'>): Promise<ShareClass[]> {
    return ctx.services.shareClass.listVisible(ctx);
  }

  @Query(() => ShareClass)
  async shareClass(@Arg('id', () => ID) id: string, @Ctx() ctx: ModuleContext<'share-class'>): Promise<ShareClass> {
    // A read-only record with the entity's fields (ShareClassService.readVisible).
    return (await ctx.services.shareClass.readVisible(ctx, id)) as unknown as ShareClass;
  }

  @FieldResolver(() => Int, {
    description:
      "The NAV tolerance in force, bps: the class's own, or its asset class's. A NAV moving further from the previous confirmed one waits for a second principal.",
  })
  navToleranceBps(@Root() sc: ShareClass): number {
    return navToleranceBps(sc);
  }

  @FieldResolver(() => String)
  fundId(@Root() sc: ShareClass): string {
    return sc.fund.id;
  }
}

/** Ops provisioning of share classes, and the relations of the ops console. */
@Resolver(() => ShareClass)
export class ShareClassOpsResolver {
  @Query(() => ShareClassPage, { description: 'Ops: share classes, newest first; filter by fund and status.' })
  shareClassPage(
    @Arg('filter', () => ShareClassFilter, { nullable: true }) filter: ShareClassFilter | null,
    @Arg('page', () => PageInput, { nullable: true }) page: PageInput | null,
    @Ctx() ctx: ModuleContext<'share-class'>,
  ) {
    return ctx.services.shareClass.list(ctx, filter ?? {}, page ?? {});
  }

  @Mutation(() => ShareClass, { description: 'Ops: a new share class (`SC######`) with every documented field.' })
  createShareClass(@Arg('input', () => CreateShareClassInput) input: CreateShareClassInput, @Ctx() ctx: ModuleContext<'share-class'>): Promise<ShareClass> {
    return ctx.services.shareClass.create(ctx, input);
  }

  @Mutation(() => ShareClass, { description: 'Ops: change a share class; a given sub-object replaces the stored one whole.' })
  updateShareClass(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdateShareClassInput) input: UpdateShareClassInput,
    @Ctx() ctx: ModuleContext<'share-class'>,
  ): Promise<ShareClass> {
    return ctx.services.shareClass.update(ctx, id, input);
  }

  @FieldResolver(() => Fund)
  async fund(@Root() sc: ShareClass, @Ctx() ctx: ModuleContext<'share-class'>): Promise<EntityRecord<Fund>> {
    return (await ctx.loaders.byId(Fund).load(sc.fund.id))!;
  }
}
