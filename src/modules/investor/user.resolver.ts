import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import type { ModuleContext } from '../../access/module-services';
import { Investor } from './investor.entity';
import { RegisterUserInput } from './user.types';

/** Surface O's name for investors: users (`US######`, the same records as `IN######`). */
@Resolver(() => Investor)
export class UserResolver {
  @Mutation(() => Investor, { description: 'Surface O registration of a user; returns the investor (its `userId` is `US######`).' })
  registerUser(@Arg('input', () => RegisterUserInput) input: RegisterUserInput, @Ctx() ctx: ModuleContext<'investor'>): Promise<Investor> {
    return ctx.services.investor.registerUser(ctx, input);
  }
}
