import type { EntityRecord } from '../../persistence/read-record';
import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { shownId } from '../../common/ids';
import type { ModuleContext } from '../../access/module-services';
import { PageInput } from '../../persistence/pagination';
import { Distributor } from '../distributor';
import { ShareClass } from '../share-class';
import { InvestorGrant, Investor, InvestorWallet } from './investor.entity';
import {
  AddInvestorWalletInput,
  InvestorFilter,
  InvestorPage,
  InvestorShareClassInput,
  InvestorWalletRef,
  RegisterInvestorInput,
  RemoveInvestorWalletInput,
} from './investor.types';

@Resolver(() => Investor)
export class InvestorResolver {
  @Mutation(() => Investor, { description: 'Surface R registration; each call creates a new investor.' })
  registerInvestor(@Arg('input', () => RegisterInvestorInput) input: RegisterInvestorInput, @Ctx() ctx: ModuleContext<'investor'>): Promise<Investor> {
    return ctx.services.investor.register(ctx, input);
  }

  @FieldResolver(() => String, { description: '`DT######`' })
  distributorId(@Root() investor: Investor): string {
    return investor.distributor.id;
  }

  @FieldResolver(() => String, { description: 'The same investor as a surface-O user: `US######`' })
  userId(@Root() investor: Investor): string {
    return shownId(investor.id, 'investor', 'O');
  }

  @FieldResolver(() => [String], { description: 'Share-class ids the investor may use' })
  async grantedSC(@Root() investor: Investor, @Ctx() ctx: ModuleContext<'investor'>): Promise<string[]> {
    const grants = await ctx.loaders.manyBy(InvestorGrant, 'investor', { id: 'asc' }).load(investor.id);
    return grants.map((g) => g.shareClass.id);
  }
}

/** Ops: reading investors, their grants and wallets; and the relations of the console. */
@Resolver(() => Investor)
export class InvestorOpsResolver {
  @Query(() => InvestorPage, { description: 'Ops: investors, newest first; filter by distributor, email (case-insensitive), externalInvestorId, status.' })
  investors(
    @Arg('filter', () => InvestorFilter, { nullable: true }) filter: InvestorFilter | null,
    @Arg('page', () => PageInput, { nullable: true }) page: PageInput | null,
    @Ctx() ctx: ModuleContext<'investor'>,
  ) {
    return ctx.services.investor.list(ctx, filter ?? {}, page ?? {});
  }

  @Query(() => Investor, { description: 'Ops: one investor, by `IN######` or `US######`.' })
  investor(@Arg('id', () => ID) id: string, @Ctx() ctx: ModuleContext<'investor'>): Promise<Investor> {
    return ctx.services.investor.get(ctx, id);
  }

  @Mutation(() => Investor, { description: 'Ops: let an investor use a share class (one its distributor may sell).' })
  grantInvestorShareClass(
    @Arg('input', () => InvestorShareClassInput) input: InvestorShareClassInput,
    @Ctx() ctx: ModuleContext<'investor'>,
  ): Promise<Investor> {
    return ctx.services.investor.grantShareClass(ctx, input);
  }

  @Mutation(() => Investor, { description: "Ops: withdraw an investor's use of a share class." })
  revokeInvestorShareClass(
    @Arg('input', () => InvestorShareClassInput) input: InvestorShareClassInput,
    @Ctx() ctx: ModuleContext<'investor'>,
  ): Promise<Investor> {
    return ctx.services.investor.revokeShareClass(ctx, input);
  }

  @Mutation(() => InvestorWallet, { description: 'Ops: add a wallet on a chain (`pending` unless `whitelisted`); one wallet in use per chain.' })
  addInvestorWallet(@Arg('input', () => AddInvestorWalletInput) input: AddInvestorWalletInput, @Ctx() ctx: ModuleContext<'investor'>): Promise<InvestorWallet> {
    return ctx.services.investorWallet.add(ctx, input);
  }

  @Mutation(() => InvestorWallet, { description: "Ops: whitelist the investor's wallet in use on a chain (identity verified)." })
  whitelistInvestorWallet(@Arg('input', () => InvestorWalletRef) input: InvestorWalletRef, @Ctx() ctx: ModuleContext<'investor'>): Promise<InvestorWallet> {
    return ctx.services.investorWallet.whitelist(ctx, input);
  }

  @Mutation(() => InvestorWallet, { description: 'Ops: remove a compromised wallet from the whitelist (status `removed`, reason, time); frees the chain.' })
  removeInvestorWallet(
    @Arg('input', () => RemoveInvestorWalletInput) input: RemoveInvestorWalletInput,
    @Ctx() ctx: ModuleContext<'investor'>,
  ): Promise<InvestorWallet> {
    return ctx.services.investorWallet.remove(ctx, input);
  }

  @FieldResolver(() => Distributor)
  async distributor(@Root() investor: Investor, @Ctx() ctx: ModuleContext<'investor'>): Promise<Distributor> {
    return (await ctx.loaders.byId(Distributor).load(investor.distributor.id))!;
  }

  @FieldResolver(() => [InvestorWallet], { description: 'Every wallet, removed ones included, oldest first' })
  wallets(@Root() investor: Investor, @Ctx() ctx: ModuleContext<'investor'>): Promise<EntityRecord<InvestorWallet>[]> {
    return ctx.loaders.manyBy(InvestorWallet, 'investor', { id: 'asc' }).load(investor.id);
  }

  @FieldResolver(() => [ShareClass], { description: 'The share classes of `grantedSC`' })
  async grantedShareClasses(@Root() investor: Investor, @Ctx() ctx: ModuleContext<'investor'>): Promise<ShareClass[]> {
    const grants = await ctx.loaders.manyBy(InvestorGrant, 'investor', { id: 'asc' }).load(investor.id);
    const classes = await ctx.loaders.byId(ShareClass).loadMany(grants.map((g) => g.shareClass.id));
    return classes.filter((c): c is ShareClass => c instanceof ShareClass);
  }
}

@Resolver(() => InvestorWallet)
export class InvestorWalletResolver {
  @FieldResolver(() => String, { description: '`IN######`' })
  investorId(@Root() wallet: InvestorWallet): string {
    return wallet.investor.id;
  }
}
