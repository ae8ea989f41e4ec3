import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Projected } from '../../persistence/read-record';
import type { GatewayContext } from '../../access/graphql-context';
import { Reads } from '../../persistence/field-reads';
import { Order } from '../order';
import { ChainTransaction } from '../chain';

/** The chain side of an order: its settlement transaction. */
@Resolver(() => Order)
export class OrderChainResolver {
  @FieldResolver(() => ChainTransaction, {
    nullable: true,
    description: "The transaction that mints or burns this order's tokens, from intent to its confirmation depth; null when settled without one.",
  })
  @Reads(Order, 'id')
  settlementTransaction(@Root() order: Projected<Order, 'id'>, @Ctx() ctx: GatewayContext): Promise<ChainTransaction | null> {
    return ctx.em.findOne(ChainTransaction, { orderId: order.id });
  }
}
