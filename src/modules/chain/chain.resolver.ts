import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { ModuleContext } from '../../access/module-services';
import { ChainTransaction } from './chain-transaction.entity';

/** Where ops see a transaction on its chain's block explorer. */
@Resolver(() => ChainTransaction)
export class ChainTransactionResolver {
  @FieldResolver(() => String, {
    nullable: true,
    description: "The current transaction's page on the chain's block explorer, when the chain's configuration names one.",
  })
  explorerUrl(@Root() tx: ChainTransaction, @Ctx() ctx: ModuleContext<'chain'>): string | null {
    const explorer = ctx.services.chain?.chains.get(tx.chainId)?.config.explorerUrl;
    return explorer && tx.hash ? `${explorer}/tx/${tx.hash}` : null;
  }
}
