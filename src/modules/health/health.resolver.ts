import { Ctx, Field, ObjectType, Query, Resolver } from 'type-graphql';
import type { ModuleContext } from '../../access/module-services';

@ObjectType()
export class Health {
  @Field(() => String, { description: '`ok`; no other value is emitted' })
  status: string;

  @Field(() => String, { description: 'ISO-8601 time of the response' })
  timestamp: string;

  @Field(() => String, { description: 'Environment name' })
  env: string;
}

@Resolver()
export class HealthResolver {
  @Query(() => Health, { description: 'Process liveness; needs no credentials and does no database work.' })
  health(@Ctx() ctx: ModuleContext<'health'>): Health {
    return ctx.services.health.check();
  }
}
