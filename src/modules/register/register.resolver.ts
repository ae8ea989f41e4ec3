import { Arg, Ctx, Field, ID, ObjectType, Query, Resolver } from 'type-graphql';
import { DecimalScalar, EpochMs } from '../../common/scalars';
import type { GatewayContext } from '../../access/graphql-context';
import type { RegisterAtDate, RegisterHolder, RegisterWallet } from './register-at-date';

@ObjectType('RegisterWallet')
class RegisterWalletView {
  @Field(() => String) address: string;
  @Field(() => DecimalScalar, { description: 'balanceOf at the closing block' }) balance: string;
}

@ObjectType('RegisterHolder')
class RegisterHolderView {
  @Field(() => ID) investorId: string;
  @Field(() => ID) distributorId: string;
  @Field(() => DecimalScalar, { description: "The register's balance at the day's close" }) balance: string;
  @Field(() => DecimalScalar, { description: "The part still in lock-up at the day's close" }) locked: string;
  @Field(() => [RegisterWalletView]) wallets: RegisterWallet[];
  @Field(() => DecimalScalar, { description: 'Σ balanceOf of its wallets at the closing block' }) chainBalance: string;
}

@ObjectType('RegisterAtDate')
class RegisterAtDateView {
  @Field(() => ID) shareClassId: string;
  @Field(() => String) asOf: string;
  @Field(() => String, { description: "The share class's dealing zone, where the day is counted" }) timeZone: string;
  @Field(() => EpochMs, { description: "The next day's start in the dealing zone: the register is as of just before it" }) closesAt: Date;
  @Field(() => String) chainId: string;
  @Field(() => String) tokenAddress: string;
  @Field(() => String, { nullable: true, description: 'The last block with a timestamp before closesAt (null: the chain had none)' }) blockNumber:
    string | null;
  @Field(() => EpochMs, { nullable: true }) blockTimestamp: Date | null;
  @Field(() => DecimalScalar) total: string;
  @Field(() => [RegisterHolderView]) holders: RegisterHolder[];
}

@Resolver()
export class RegisterResolver {
  @Query(() => RegisterAtDateView, {
    description:
      "Ops (viewer): the register at the close of a past day (`asOf` YYYY-MM-DD) in the share class's dealing zone: every holder, its wallets, balance, locked part, and the block that closes the day (docs/register.md). CSV: GET /ops/register.csv.",
  })
  register(@Arg('shareClassId', () => ID) shareClassId: string, @Arg('asOf', () => String) asOf: string, @Ctx() ctx: GatewayContext): Promise<RegisterAtDate> {
    ctx.access.requireRole('viewer');
    return ctx.services.register.read(ctx.em, shareClassId, asOf);
  }
}
