import { Ctx, Query, Resolver } from 'type-graphql';
import type { ModuleContext } from '../../access/module-services';
import { Today } from './today.types';

@Resolver()
export class TodayResolver {
  @Query(() => Today, {
    description:
      'Ops: what the desk has to do today: orders to accept, NAVs due, settlements due, approvals waiting, failed transactions, unexplained chain movements, and AUM per share class with its change.',
  })
  today(@Ctx() ctx: ModuleContext<'book'>): Promise<Today> {
    return ctx.services.today.today(ctx);
  }
}
