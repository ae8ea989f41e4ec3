import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { ModuleContext } from '../../access/module-services';
import { Distributor } from '../distributor';
import { ShareClass } from '../share-class';
import { Onboarding } from './onboarding.types';

@Resolver(() => ShareClass)
export class ShareClassOnboardingResolver {
  @FieldResolver(() => Onboarding, {
    nullable: true,
    description: 'Ops: what the share class still lacks before its first order can succeed (the rules placement applies).',
  })
  onboarding(@Root() sc: ShareClass, @Ctx() ctx: ModuleContext<'onboarding'>): Promise<Onboarding> {
    return ctx.services.onboarding.shareClass(ctx, sc.id);
  }
}

@Resolver(() => Distributor)
export class DistributorOnboardingResolver {
  @FieldResolver(() => Onboarding, {
    nullable: true,
    description: 'Ops: what the distributor still lacks before its first order can succeed (the rules placement applies).',
  })
  onboarding(@Root() d: Distributor, @Ctx() ctx: ModuleContext<'onboarding'>): Promise<Onboarding> {
    return ctx.services.onboarding.distributor(ctx, d.id);
  }
}
