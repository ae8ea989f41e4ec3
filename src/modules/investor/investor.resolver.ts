import { Arg, Ctx, FieldResolver, Mutation, Resolver, Root } from 'type-graphql';
import { alias } from '../../common/ids';
import type { GatewayContext } from '../../graphql/context';
import { InvestorGrant, Investor } from './investor.entity';
import { RegisterInvestorInput } from './investor.types';

@Resolver(() => Investor)
export class InvestorResolver {
  @Mutation(() => Investor, { description: 'Surface R registration; each call creates a new investor.' })
  registerInvestor(@Arg('input', () => RegisterInvestorInput) input: RegisterInvestorInput, @Ctx() ctx: GatewayContext): Promise<Investor> {
    return ctx.services.investor.register(ctx, input);
  }

  @FieldResolver(() => String, { description: '`DT######`' })
  distributorId(@Root() investor: Investor): string {
    return investor.distributor.id;
  }

  @FieldResolver(() => String, { description: 'The same investor as a surface-O user: `US######`' })
  userId(@Root() investor: Investor): string {
    return alias(investor.id, 'US');
  }

  @FieldResolver(() => [String], { description: 'Share-class ids the investor may use' })
  async grantedSC(@Root() investor: Investor, @Ctx() ctx: GatewayContext): Promise<string[]> {
    const grants = await ctx.loaders.manyBy(InvestorGrant, 'investor', { id: 'asc' }).load(investor.id);
    return grants.map((g) => g.shareClass.id);
  }
}
