import type { EntityRecord } from '../../persistence/read-record';
import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { shownId } from '../../common/ids';
import type { ModuleContext } from '../../access/module-services';
import { PageInput } from '../../persistence/pagination';
import { ShareClass } from '../share-class';
import { Distributor, DistributorHost, DistributorWallet, ShareClassGrant } from './distributor.entity';
import {
  CreateDistributorInput,
  DistributorFilter,
  DistributorHostInput,
  BindDistributorHostInput,
  DistributorPage,
  GrantShareClassInput,
  RevokeShareClassInput,
  SetDistributorWalletInput,
  UpdateDistributorInput,
} from './distributor.types';

@Resolver(() => Distributor)
export class DistributorResolver {
  @Query(() => DistributorPage, { description: 'Ops: distributors, newest first.' })
  distributors(
    @Arg('filter', () => DistributorFilter, { nullable: true }) filter: DistributorFilter | null,
    @Arg('page', () => PageInput, { nullable: true }) page: PageInput | null,
    @Ctx() ctx: ModuleContext<'distributor'>,
  ) {
    return ctx.services.distributor.list(ctx, filter ?? {}, page ?? {});
  }

  @Query(() => Distributor, { description: 'Ops: one distributor, by `DT######` or `PT######`.' })
  distributor(@Arg('id', () => ID) id: string, @Ctx() ctx: ModuleContext<'distributor'>): Promise<Distributor> {
    return ctx.services.distributor.get(ctx, id);
  }

  @Mutation(() => Distributor, { description: 'Ops: a new distributor (`DT######`, alias `PT######`).' })
  createDistributor(@Arg('input', () => CreateDistributorInput) input: CreateDistributorInput, @Ctx() ctx: ModuleContext<'distributor'>): Promise<Distributor> {
    return ctx.services.distributor.create(ctx, input);
  }

  @Mutation(() => Distributor, { description: 'Ops: change a distributor; only the given fields change.' })
  updateDistributor(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdateDistributorInput) input: UpdateDistributorInput,
    @Ctx() ctx: ModuleContext<'distributor'>,
  ): Promise<Distributor> {
    return ctx.services.distributor.update(ctx, id, input);
  }

  @Mutation(() => DistributorHost, { description: 'Ops: map a hostname to a distributor for surface R (lower-cased; CONFLICT when taken).' })
  addDistributorHost(
    @Arg('input', () => DistributorHostInput) input: DistributorHostInput,
    @Ctx() ctx: ModuleContext<'distributor'>,
  ): Promise<DistributorHost> {
    return ctx.services.distributor.addHost(ctx, input);
  }

  @Mutation(() => DistributorHost, {
    description:
      'Ops: bind a surface-R hostname to source ranges and/or a client certificate fingerprint, replacing its binding (both empty: unbound, refused where HOST_BINDING_REQUIRED is on).',
  })
  bindDistributorHost(
    @Arg('input', () => BindDistributorHostInput) input: BindDistributorHostInput,
    @Ctx() ctx: ModuleContext<'distributor'>,
  ): Promise<DistributorHost> {
    return ctx.services.distributor.bindHost(ctx, input);
  }

  @Mutation(() => Distributor, { description: 'Ops: unmap a hostname; returns the distributor it was mapped to.' })
  removeDistributorHost(@Arg('hostname', () => String) hostname: string, @Ctx() ctx: ModuleContext<'distributor'>): Promise<Distributor> {
    return ctx.services.distributor.removeHost(ctx, hostname);
  }

  @Mutation(() => DistributorWallet, { description: "Ops: set the distributor's own wallet on a chain (`hold` delivery)." })
  setDistributorWallet(
    @Arg('input', () => SetDistributorWalletInput) input: SetDistributorWalletInput,
    @Ctx() ctx: ModuleContext<'distributor'>,
  ): Promise<DistributorWallet> {
    return ctx.services.distributor.setWallet(ctx, input);
  }

  @Mutation(() => ShareClassGrant, { description: 'Ops: let a distributor sell a share class; granting again changes the delivery mode.' })
  grantShareClass(@Arg('input', () => GrantShareClassInput) input: GrantShareClassInput, @Ctx() ctx: ModuleContext<'distributor'>): Promise<ShareClassGrant> {
    return ctx.services.distributor.grant(ctx, input);
  }

  @Mutation(() => Distributor, { description: 'Ops: stop a distributor selling a share class.' })
  revokeShareClass(@Arg('input', () => RevokeShareClassInput) input: RevokeShareClassInput, @Ctx() ctx: ModuleContext<'distributor'>): Promise<Distributor> {
    return ctx.services.distributor.revoke(ctx, input);
  }

  @FieldResolver(() => String, { description: 'The same distributor on surface O: `PT######`' })
  partnerId(@Root() d: Distributor): string {
    return shownId(d.id, 'distributor', 'O');
  }

  @FieldResolver(() => [DistributorHost], { description: 'Hostnames mapped to it (surface R)' })
  hosts(@Root() d: Distributor, @Ctx() ctx: ModuleContext<'distributor'>): Promise<EntityRecord<DistributorHost>[]> {
    return ctx.loaders.manyBy(DistributorHost, 'distributor', { hostname: 'asc' }).load(d.id);
  }

  @FieldResolver(() => [DistributorWallet], { description: 'Its own wallets, one per chain' })
  wallets(@Root() d: Distributor, @Ctx() ctx: ModuleContext<'distributor'>): Promise<EntityRecord<DistributorWallet>[]> {
    return ctx.loaders.manyBy(DistributorWallet, 'distributor', { chainId: 'asc' }).load(d.id);
  }

  @FieldResolver(() => [ShareClassGrant], { description: 'Share classes it may sell' })
  grants(@Root() d: Distributor, @Ctx() ctx: ModuleContext<'distributor'>): Promise<EntityRecord<ShareClassGrant>[]> {
    return ctx.loaders.manyBy(ShareClassGrant, 'distributor', { id: 'asc' }).load(d.id);
  }
}

@Resolver(() => DistributorHost)
export class DistributorHostResolver {
  @FieldResolver(() => String)
  distributorId(@Root() h: DistributorHost): string {
    return h.distributor.id;
  }

  @FieldResolver(() => Distributor)
  async distributor(@Root() h: DistributorHost, @Ctx() ctx: ModuleContext<'distributor'>): Promise<Distributor> {
    return (await ctx.loaders.byId(Distributor).load(h.distributor.id))!;
  }
}

@Resolver(() => DistributorWallet)
export class DistributorWalletResolver {
  @FieldResolver(() => String)
  distributorId(@Root() w: DistributorWallet): string {
    return w.distributor.id;
  }
}

@Resolver(() => ShareClassGrant)
export class ShareClassGrantResolver {
  @FieldResolver(() => String)
  distributorId(@Root() g: ShareClassGrant): string {
    return g.distributor.id;
  }

  @FieldResolver(() => String)
  shareClassId(@Root() g: ShareClassGrant): string {
    return g.shareClass.id;
  }

  @FieldResolver(() => Distributor)
  async distributor(@Root() g: ShareClassGrant, @Ctx() ctx: ModuleContext<'distributor'>): Promise<Distributor> {
    return (await ctx.loaders.byId(Distributor).load(g.distributor.id))!;
  }

  @FieldResolver(() => ShareClass)
  async shareClass(@Root() g: ShareClassGrant, @Ctx() ctx: ModuleContext<'distributor'>): Promise<EntityRecord<ShareClass>> {
    return (await ctx.loaders.byId(ShareClass).load(g.shareClass.id))!;
  }
}
