import { Arg, Ctx, FieldResolver, ID, Query, Resolver, Root } from 'type-graphql';
import type { GatewayContext } from '../../graphql/context';
import { Nav } from '../nav/nav.entity';
import { Token } from '../token/token.entity';
import { ShareClass } from './share-class.entity';

@Resolver(() => ShareClass)
export class ShareClassResolver {
  @Query(() => [ShareClass], { description: 'Share classes visible to the caller: all for ops, granted ones for a distributor.' })
  shareClasses(@Ctx() ctx: GatewayContext): Promise<ShareClass[]> {
    return ctx.services.shareClass.listVisible(ctx);
  }

  @Query(() => ShareClass)
  shareClass(@Arg('id', () => ID) id: string, @Ctx() ctx: GatewayContext): Promise<ShareClass> {
    return ctx.services.shareClass.getVisible(ctx, id);
  }

  @FieldResolver(() => String, { nullable: true, description: "The primary token's chain" })
  async defaultChainId(@Root() sc: ShareClass, @Ctx() ctx: GatewayContext): Promise<string | null> {
    return (await this.primaryToken(sc, ctx))?.chainId ?? null;
  }

  @FieldResolver(() => Token, { nullable: true })
  async primaryToken(@Root() sc: ShareClass, @Ctx() ctx: GatewayContext): Promise<Token | null> {
    const tokens = await ctx.loaders.manyBy(Token, 'shareClass').load(sc.id);
    return tokens.find((t) => t.isPrimary) ?? null;
  }

  @FieldResolver(() => [Token])
  tokens(@Root() sc: ShareClass, @Ctx() ctx: GatewayContext): Promise<Token[]> {
    return ctx.loaders.manyBy(Token, 'shareClass', { id: 'asc' }).load(sc.id);
  }

  @FieldResolver(() => String)
  fundId(@Root() sc: ShareClass): string {
    return sc.fund.id;
  }

  @FieldResolver(() => Nav, { nullable: true, description: 'The latest NAV, if any' })
  liveNav(@Root() sc: ShareClass, @Ctx() ctx: GatewayContext): Promise<Nav | null> {
    return ctx.services.nav.latest(ctx, sc.id);
  }
}
