import type { EntityRecord } from '../../persistence/read-record';
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { ModuleContext } from '../../access/module-services';
import { Issuer } from '../issuer';
import { Fund } from './fund.entity';

/** An issuer's funds: a field of the issuer that the fund module answers, since issuer comes first. */
@Resolver(() => Issuer)
export class IssuerFundsResolver {
  @FieldResolver(() => [Fund])
  funds(@Root() issuer: Issuer, @Ctx() ctx: ModuleContext<'fund'>): Promise<EntityRecord<Fund>[]> {
    return ctx.loaders.manyBy(Fund, 'issuer', { id: 'asc' }).load(issuer.id);
  }
}
