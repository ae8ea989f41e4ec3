import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { ModuleContext } from '../../access/module-services';
import { ShareClass } from '../share-class';
import { Nav } from './nav.entity';

/** A share class's latest NAV: a field of the share class that the nav module answers, since share-class comes first. */
@Resolver(() => ShareClass)
export class ShareClassNavResolver {
  @FieldResolver(() => Nav, { nullable: true, description: 'The latest NAV, if any' })
  liveNav(@Root() sc: ShareClass, @Ctx() ctx: ModuleContext<'nav'>): Promise<Nav | null> {
    return ctx.services.nav.latest(ctx, sc.id);
  }
}
