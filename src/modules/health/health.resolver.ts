import { Ctx, Field, ObjectType, Query, Resolver } from 'type-graphql';
import type { GatewayContext } from '../../access/graphql-context';

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
  health(@Ctx() ctx: GatewayContext): Health {
    return ctx.services.health.check();
  }
}
