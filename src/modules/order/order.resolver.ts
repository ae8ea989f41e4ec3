import type { EntityRecord, Projected } from '../../persistence/read-record';
import { GraphQLJSONObject } from 'graphql-scalars';
import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Ctx, FieldResolver, ID, Info, Query, Resolver, Root } from 'type-graphql';
import type { ModuleContext } from '../../access/module-services';
import { Reads, selectionProjection } from '../../persistence/field-reads';
import { PageInput } from '../../persistence/pagination';
import { Distributor } from '../distributor';
import { Investor } from '../investor';
import { ShareClass } from '../share-class';
import { Order, OrderStatusEntry } from './order.entity';
import { allowedActions, OrderAction } from './order-states';
import type { OrderRecord } from './order.service';
import { OrderFilter, OrderPage } from './order.types';

/**
 * The Order type's shared fields (both flows) and the order-book queries. Related records are
 * loaded in batches per request (one query per relation for a whole page).
 */
@Resolver(() => Order)
export class OrderResolver {
  @Query(() => Order, { description: 'One order as the caller may see it (`order not found` otherwise).' })
  order(@Arg('id', () => ID) id: string, @Ctx() ctx: ModuleContext<'order'>): Promise<OrderRecord> {
    return ctx.services.order.visibleOrderRecord(ctx, id);
  }

  @Query(() => OrderPage, { description: 'The order book, newest first, filtered and cursor-paginated (up to 1000 a page).' })
  orders(
    @Ctx() ctx: ModuleContext<'order'>,
    @Info() info: GraphQLResolveInfo,
    @Arg('filter', () => OrderFilter, { nullable: true }) filter?: OrderFilter | null,
    @Arg('page', () => PageInput, { nullable: true }) page?: PageInput | null,
  ) {
    // Only the columns of the fields asked for (a REST list needs 8 of 38) and the cursor's keys.
    const columns = selectionProjection(ctx.em, Order, info, ['items'], ['id', 'createdAt']);
    return ctx.services.order.list(ctx, filter ?? {}, page ?? {}, columns);
  }

  @FieldResolver(() => String, { description: 'The order id (`OR######` or `ord_…`)' })
  @Reads(Order, 'id')
  orderId(@Root() order: Projected<Order, 'id'>): string {
    return order.id;
  }

  @FieldResolver(() => String, { description: '`SUBSCRIPTION` or `REDEMPTION`' })
  @Reads(Order, 'type')
  orderType(@Root() order: Projected<Order, 'type'>): string {
    return order.type.toUpperCase();
  }

  @FieldResolver(() => String, { description: '`DT######`' })
  @Reads(Order, 'distributor')
  distributorId(@Root() order: Projected<Order, 'distributor'>): string {
    return order.distributor.id;
  }

  @FieldResolver(() => String, { description: '`IN######`' })
  @Reads(Order, 'investor')
  investorId(@Root() order: Projected<Order, 'investor'>): string {
    return order.investor.id;
  }

  @FieldResolver(() => String, { description: '`SC######`' })
  @Reads(Order, 'shareClass')
  shareClassId(@Root() order: Projected<Order, 'shareClass'>): string {
    return order.shareClass.id;
  }

  @FieldResolver(() => Distributor)
  @Reads(Order, 'distributor')
  async distributor(@Root() order: Projected<Order, 'distributor'>, @Ctx() ctx: ModuleContext<'order'>): Promise<EntityRecord<Distributor>> {
    return (await ctx.loaders.byId(Distributor).load(order.distributor.id))!;
  }

  @FieldResolver(() => Investor)
  @Reads(Order, 'investor')
  async investor(@Root() order: Projected<Order, 'investor'>, @Ctx() ctx: ModuleContext<'order'>): Promise<EntityRecord<Investor>> {
    return (await ctx.loaders.byId(Investor).load(order.investor.id))!;
  }

  @FieldResolver(() => ShareClass)
  @Reads(Order, 'shareClass')
  async shareClass(@Root() order: Projected<Order, 'shareClass'>, @Ctx() ctx: ModuleContext<'order'>): Promise<EntityRecord<ShareClass>> {
    return (await ctx.loaders.byId(ShareClass).load(order.shareClass.id))!;
  }

  @FieldResolver(() => [OrderAction], {
    description: "The moves the caller may ask of the order in its current status (the transition table's); the console offers these and no others",
  })
  @Reads(Order, 'flow', 'status')
  allowedActions(@Root() order: Projected<Order, 'flow' | 'status'>, @Ctx() ctx: ModuleContext<'order'>): OrderAction[] {
    return allowedActions(order, ctx.access.actor);
  }

  @FieldResolver(() => [OrderStatusEntry], { description: 'Every transition, oldest first' })
  @Reads(Order, 'id')
  async statusHistory(
    @Root() order: Projected<Order, 'id'> & Partial<Pick<OrderRecord, 'loadedStatusHistory'>>,
    @Ctx() ctx: ModuleContext<'order'>,
  ): Promise<readonly EntityRecord<OrderStatusEntry>[]> {
    const loaded = order.loadedStatusHistory;
    if (loaded) return loaded;
    return ctx.loaders.manyBy(OrderStatusEntry, 'order', { at: 'asc', id: 'asc' }).load(order.id);
  }

  @FieldResolver(() => GraphQLJSONObject, {
    nullable: true,
    description: 'Once pushed: `{ <provider>: { orderReference, submittedAt (epoch ms), raw: { request, response } } }`',
  })
  @Reads(Order, 'supplyRefs')
  supplyRefs(@Root() order: Projected<Order, 'supplyRefs'>): Record<string, unknown> | null {
    return order.supplyRefs ?? null;
  }
}
