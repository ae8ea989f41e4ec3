import type { EntityRecord } from '../../persistence/read-record';
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { ModuleContext } from '../../access/module-services';
import { Fund } from '../fund';
import { ShareClass } from './share-class.entity';

/** A fund's share classes: a field of the fund that the share-class module answers, since fund comes first. */
@Resolver(() => Fund)
export class FundShareClassesResolver {
  @FieldResolver(() => [ShareClass])
  shareClasses(@Root() fund: Fund, @Ctx() ctx: ModuleContext<'share-class'>): Promise<EntityRecord<ShareClass>[]> {
    return ctx.loaders.manyBy(ShareClass, 'fund', { id: 'asc' }).load(fund.id);
  }
}
