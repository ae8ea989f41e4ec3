import { Ctx, Query, Resolver } from 'type-graphql';
import type { ModuleContext } from '../../access/module-services';
import { Book } from './book.types';

@Resolver()
export class BookResolver {
  @Query(() => Book, {
    description:
      'Ops: the book at a glance: assets under management over time, flows per dealing date, orders waiting, the next cut-offs, the register against the chain.',
  })
  book(@Ctx() ctx: ModuleContext<'book'>): Promise<Book> {
    return ctx.services.book.book(ctx);
  }
}
