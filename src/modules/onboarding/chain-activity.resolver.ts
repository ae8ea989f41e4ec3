import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { ModuleContext } from '../../access/module-services';
import { ChainTransaction } from '../chain';

/**
 * What the gateway sent on a chain lately, for ops to follow a synchronous step (a token
 * deployment is a dozen transactions, each waited for) while it runs: the console reads it
 * again until the step returns.
 */
@Resolver()
export class ChainActivityResolver {
  @Query(() => [ChainTransaction], { description: 'Ops: the latest transactions of a purpose (`deploy`, `settlement.mint`…) on a chain, newest first.' })
  chainTransactions(
    @Arg('chainId', () => String) chainId: string,
    @Arg('purpose', () => String) purpose: string,
    @Arg('last', () => Int, { nullable: true, description: '1 to 100 (default 20)' }) last: number | null,
    @Ctx() ctx: ModuleContext<'onboarding'>,
  ): Promise<ChainTransaction[]> {
    ctx.access.requireOps();
    return ctx.em.find(ChainTransaction, { chainId, purpose }, { orderBy: { id: 'desc' }, limit: Math.min(Math.max(last ?? 20, 1), 100) });
  }
}
