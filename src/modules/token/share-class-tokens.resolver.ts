import type { EntityRecord } from '../../persistence/read-record';
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { ModuleContext } from '../../access/module-services';
import { ShareClass, type ShareClassRecord } from '../share-class';
import { Token } from './token.entity';

/** A share class's tokens: fields of the share class that the token module answers, since share-class comes first. */
@Resolver(() => ShareClass)
export class ShareClassTokensResolver {
  @FieldResolver(() => String, { nullable: true, description: "The primary token's chain" })
  async defaultChainId(@Root() sc: ShareClass, @Ctx() ctx: ModuleContext<'token'>): Promise<string | null> {
    const known = (sc as Partial<ShareClassRecord>).primaryChainId;
    if (known !== undefined) return known;
    return (await this.primaryToken(sc, ctx))?.chainId ?? null;
  }

  @FieldResolver(() => Token, { nullable: true })
  async primaryToken(@Root() sc: ShareClass, @Ctx() ctx: ModuleContext<'token'>): Promise<EntityRecord<Token> | null> {
    const tokens = await ctx.loaders.manyBy(Token, 'shareClass').load(sc.id);
    return tokens.find((t) => t.isPrimary) ?? null;
  }

  @FieldResolver(() => [Token])
  tokens(@Root() sc: ShareClass, @Ctx() ctx: ModuleContext<'token'>): Promise<EntityRecord<Token>[]> {
    return ctx.loaders.manyBy(Token, 'shareClass', { id: 'asc' }).load(sc.id);
  }
}
