import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { GatewayContext } from '../../graphql/context';
import { Reads } from '../../graphql/field-reads';
import { Order } from '../order/order.entity';
import { ChainTransaction } from './chain-transaction.entity';

/** The chain side of an order: its settlement transaction (ops only: the visibility table hides it from distributors). */
@Resolver(() => Order)
export class OrderChainResolver {
  @FieldResolver(() => ChainTransaction, { nullable: true, description: 'Ops: the transaction that mints or burns this order\'s tokens, from intent to its confirmation depth; null when settled without one.' })
  @Reads(Order, 'id')
  settlementTransaction(@Root() order: Order, @Ctx() ctx: GatewayContext): Promise<ChainTransaction | null> {
    return ctx.em.findOne(ChainTransaction, { orderId: order.id });
  }

  @FieldResolver(() => String, { nullable: true, description: "Ops: the settlement transaction's page on the chain's block explorer, when its configuration names one." })
  @Reads(Order, 'chainId', 'transferHash')
  settlementExplorerUrl(@Root() order: Order, @Ctx() ctx: GatewayContext): string | null {
    const explorer = order.chainId ? ctx.services.chain?.chains.get(order.chainId)?.config.explorerUrl : null;
    return explorer && order.transferHash ? `${explorer}/tx/${order.transferHash}` : null;
  }
}
