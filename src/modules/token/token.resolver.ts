import type { EntityRecord } from '../../persistence/read-record';
import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { ModuleContext } from '../../access/module-services';
import { PageInput } from '../../persistence/pagination';
import { ShareClass } from '../share-class';
import { Token } from './token.entity';
import { CreateTokenInput, DeployTokenInput, TokenFilter, TokenPage, UpdateTokenInput } from './token.types';

@Resolver(() => Token)
export class TokenResolver {
  @Query(() => TokenPage, { description: 'Ops: tokens, newest first; filter by share class and chain.' })
  tokens(
    @Arg('filter', () => TokenFilter, { nullable: true }) filter: TokenFilter | null,
    @Arg('page', () => PageInput, { nullable: true }) page: PageInput | null,
    @Ctx() ctx: ModuleContext<'token'>,
  ) {
    return ctx.services.token.list(ctx, filter ?? {}, page ?? {});
  }

  @Query(() => Token, { description: 'Ops: one token.' })
  token(@Arg('id', () => ID) id: string, @Ctx() ctx: ModuleContext<'token'>): Promise<Token> {
    return ctx.services.token.get(ctx, id);
  }

  @Mutation(() => Token, {
    description:
      'Ops: deploy a full ERC-3643 suite (T-REX 4.1.6: token, identity registry, compliance, registries) for a share class on a chain the gateway has a key for, and record it as a token (`TK######`).',
  })
  deployToken(@Arg('input', () => DeployTokenInput) input: DeployTokenInput, @Ctx() ctx: ModuleContext<'token'>): Promise<Token> {
    return ctx.services.token.deploy(ctx, input);
  }

  @Mutation(() => Token, {
    description:
      "Ops: a new token (`TK######`) of a share class at an existing address; `isPrimary` moves the primary flag to it. On a chain the gateway has a key for, the address must answer ERC-3643 and the gateway's key must be an agent of the token and of its identity registry (else 400 saying which).",
  })
  createToken(@Arg('input', () => CreateTokenInput) input: CreateTokenInput, @Ctx() ctx: ModuleContext<'token'>): Promise<Token> {
    return ctx.services.token.create(ctx, input);
  }

  @Mutation(() => Token, { description: 'Ops: change a token; `isPrimary: true` moves the primary flag to it atomically.' })
  updateToken(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdateTokenInput) input: UpdateTokenInput,
    @Ctx() ctx: ModuleContext<'token'>,
  ): Promise<Token> {
    return ctx.services.token.update(ctx, id, input);
  }

  @FieldResolver(() => String, { description: '`SC######`' })
  shareClassId(@Root() token: Token): string {
    return token.shareClass.id;
  }

  @FieldResolver(() => ShareClass)
  async shareClass(@Root() token: Token, @Ctx() ctx: ModuleContext<'token'>): Promise<EntityRecord<ShareClass>> {
    return (await ctx.loaders.byId(ShareClass).load(token.shareClass.id))!;
  }
}
