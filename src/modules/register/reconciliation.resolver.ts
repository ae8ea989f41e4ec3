import { Arg, Ctx, Field, ID, Int, ObjectType, Query, Resolver } from 'type-graphql';
import { conflict, notFound } from '../../common/errors';
import type { ModuleContext } from '../../access/module-services';
import { DecimalScalar } from '../../common/scalars';
import { ChainMovement, ChainMovementKind } from '../chain';
import type { ReconciliationDifference, ReconciliationHolder, ReconciliationResult } from './reconciliation';

@ObjectType('ReconciliationDifference', { description: 'A holder whose register balance and on-chain balance differ.' })
class ReconciliationDifferenceView {
  @Field(() => ID, { nullable: true, description: 'Null: wallets the register does not know (an unknown holder)' }) investorId: string | null;
  @Field(() => [String]) wallets: string[];
  @Field(() => DecimalScalar) registerBalance: string;
  @Field(() => DecimalScalar, { description: 'Σ balanceOf of its wallets at the pinned block' }) chainBalance: string;
  @Field(() => DecimalScalar, { description: 'chain − register' }) difference: string;
  @Field(() => [ChainMovement], { description: 'Movements the chain follower saw for this holder, oldest first' }) movements: ChainMovement[];
}

@ObjectType('ReconciliationWallet', { description: "A holder's wallet and its balanceOf at the pinned block." })
class ReconciliationWalletView {
  @Field(() => String) address: string;
  @Field(() => DecimalScalar) balance: string;
}

@ObjectType('ReconciliationHolder', { description: 'A holder as compared, equal or not.' })
class ReconciliationHolderView {
  @Field(() => ID, { nullable: true, description: 'Null: wallets the register does not know (an unknown holder)' }) investorId: string | null;
  @Field(() => [ReconciliationWalletView]) wallets: { address: string; balance: string }[];
  @Field(() => DecimalScalar) registerBalance: string;
  @Field(() => DecimalScalar, { description: 'Σ balanceOf of its wallets at the pinned block' }) chainBalance: string;
  @Field(() => DecimalScalar, { description: 'chain − register' }) difference: string;
}

@ObjectType('Reconciliation', { description: "Ops: the register against the chain for a share class's token, every balance read at one pinned block." })
class ReconciliationView {
  @Field(() => ID) shareClassId: string;
  @Field(() => String) chainId: string;
  @Field(() => String) tokenAddress: string;
  @Field(() => String) blockNumber: string;
  @Field(() => DecimalScalar) totalSupply: string;
  @Field(() => DecimalScalar) registerTotal: string;
  @Field(() => DecimalScalar, { description: 'totalSupply − registerTotal' }) supplyDifference: string;
  @Field(() => Int) holdersCompared: number;
  @Field(() => [ReconciliationDifferenceView], { description: 'Every holder that differs; empty when the register is true to the chain' })
  differences: ReconciliationDifference[];
  @Field(() => [ReconciliationHolderView], { description: "Every holder compared, equal or not, with each wallet's balanceOf" })
  holders: ReconciliationHolder[];
  @Field(() => DecimalScalar, { description: 'Σ |difference| over the holders (the metric register_chain_difference)' }) totalDifference: string;
}

@Resolver()
export class ReconciliationResolver {
  @Query(() => ReconciliationView, {
    description:
      "Ops: every holder's register balance against balanceOf at one pinned block, and totalSupply against the register's total; each difference with the movements that explain it.",
  })
  async reconciliation(@Arg('shareClassId', () => ID) shareClassId: string, @Ctx() ctx: ModuleContext<'register'>): Promise<ReconciliationResult> {
    ctx.access.requireOps();
    const r = ctx.services.reconciliation;
    if (!r) throw conflict('no chain is configured: nothing to reconcile with');
    if (!(await ctx.services.shareClass.record(ctx, shareClassId))) throw notFound('Share class not found');
    return r.run(ctx.em, shareClassId);
  }

  @Query(() => [ChainMovement], {
    description:
      'Ops: movements on chain the register could not follow (to or from a wallet it does not know) or does not follow (mints and burns the gateway did not send), newest first.',
  })
  unexplainedChainMovements(@Ctx() ctx: ModuleContext<'register'>): Promise<ChainMovement[]> {
    ctx.access.requireOps();
    return ctx.em.find(
      ChainMovement,
      { kind: { $in: [ChainMovementKind.unknown_holder, ChainMovementKind.issuance] }, undoneAt: null },
      { orderBy: { id: 'desc' }, limit: 500 },
    );
  }
}
