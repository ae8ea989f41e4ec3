import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Projected } from '../../persistence/read-record';
import type { ModuleContext } from '../../access/module-services';
import { Reads } from '../../persistence/field-reads';
import { Order } from '../order';
import { ChainTransaction } from '../chain';
import { orderCorrelation, orderOfCorrelation } from './order-correlation';

/** The chain side of an order: its settlement transaction. */
@Resolver(() => Order)
export class OrderChainResolver {
  @FieldResolver(() => ChainTransaction, {
    nullable: true,
    description: "The transaction that mints or burns this order's tokens, from intent to its confirmation depth; null when settled without one.",
  })
  @Reads(Order, 'id')
  settlementTransaction(@Root() order: Projected<Order, 'id'>, @Ctx() ctx: ModuleContext<'settlement'>): Promise<ChainTransaction | null> {
    return ctx.em.findOne(ChainTransaction, { correlation: orderCorrelation(order.id) });
  }
}

/** The order a settlement transaction serves: the chain keeps an opaque correlation, settlement reads its order in it. */
@Resolver(() => ChainTransaction)
export class ChainTransactionOrderResolver {
  @FieldResolver(() => String, { nullable: true })
  orderId(@Root() tx: ChainTransaction): string | null {
    return orderOfCorrelation(tx.correlation);
  }
}
