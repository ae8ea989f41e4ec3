import type { EntityRecord } from '../../persistence/read-record';
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { ModuleContext } from '../../access/module-services';
import { ShareClass } from '../share-class';
import { ShareClassGrant } from './distributor.entity';

/** Who may sell a share class: a field of the share class that the distributor module answers, since share-class comes first. */
@Resolver(() => ShareClass)
export class ShareClassGrantsResolver {
  @FieldResolver(() => [ShareClassGrant], { description: 'The distributors that may sell it (a distributor sees its own grant)' })
  grants(@Root() sc: ShareClass, @Ctx() ctx: ModuleContext<'distributor'>): Promise<EntityRecord<ShareClassGrant>[]> {
    return ctx.loaders.manyBy(ShareClassGrant, 'shareClass', { id: 'asc' }).load(sc.id);
  }
}
