import { Arg, Ctx, Field, ID, ObjectType, Query, Resolver } from 'type-graphql';
import { DecimalScalar, EpochMs } from '../../common/scalars';
import type { ModuleContext } from '../../access/module-services';
import type { InvestorPosition, Position, Positions } from './positions';
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

@ObjectType('Position')
class PositionView {
  @Field(() => ID) investorId: string;
  @Field(() => String, { nullable: true, description: "The investor's name, or its e-mail where it registered without one" }) investorName: string | null;
  @Field(() => ID) distributorId: string;
  @Field(() => String) distributorName: string;
  @Field(() => DecimalScalar, { description: "The register's balance now" }) tokens: string;
  @Field(() => DecimalScalar, { nullable: true, description: 'tokens × the live NAV, in the share class currency (null: no live NAV)' }) value: string | null;
  @Field(() => DecimalScalar, { description: "The holder's part of the class's tokens, percent to 4 places" }) sharePercent: string;
  @Field(() => DecimalScalar, { description: 'The part still in lock-up now' }) locked: string;
  @Field(() => Boolean, { description: "Whether an operator froze the holder's wallet on the class (its redemptions and transfers refused)" }) frozen: boolean;
}

@ObjectType('Positions')
class PositionsView {
  @Field(() => ID) shareClassId: string;
  @Field(() => String) currency: string;
  @Field(() => EpochMs, { description: 'When the register was read' }) at: Date;
  @Field(() => DecimalScalar, { nullable: true, description: "The live NAV's close the values use" }) navClose: string | null;
  @Field(() => EpochMs, { nullable: true }) navPublishedAt: Date | null;
  @Field(() => DecimalScalar) totalTokens: string;
  @Field(() => DecimalScalar, { nullable: true }) totalValue: string | null;
  @Field(() => [PositionView], { description: 'Largest holding first' }) holders: Position[];
}

@ObjectType('InvestorPosition')
class InvestorPositionView {
  @Field(() => ID) shareClassId: string;
  @Field(() => String) shareClassName: string;
  @Field(() => String) currency: string;
  @Field(() => DecimalScalar) tokens: string;
  @Field(() => DecimalScalar, { nullable: true, description: 'tokens × the live NAV (null: no live NAV)' }) value: string | null;
  @Field(() => DecimalScalar, { nullable: true }) navClose: string | null;
  @Field(() => DecimalScalar, { description: 'The part still in lock-up now' }) locked: string;
  @Field(() => Boolean, { description: "Whether an operator froze the holder's wallet on the class (its redemptions and transfers refused)" }) frozen: boolean;
}

@Resolver()
export class RegisterResolver {
  @Query(() => [InvestorPositionView], {
    description: "Ops (viewer): an investor's positions now, one per share class it holds tokens of, valued at that class's live NAV.",
  })
  investorPositions(@Arg('investorId', () => ID) investorId: string, @Ctx() ctx: ModuleContext<'register'>): Promise<InvestorPosition[]> {
    ctx.access.requireRole('viewer');
    return ctx.services.positions.ofInvestor(ctx.em, investorId);
  }

  @Query(() => PositionsView, {
    description:
      'Ops (viewer): the current register of a share class: every holder with tokens now, its distributor, value at the live NAV, part of the class and tokens in lock-up. CSV: GET /ops/positions.csv.',
  })
  positions(@Arg('shareClassId', () => ID) shareClassId: string, @Ctx() ctx: ModuleContext<'register'>): Promise<Positions> {
    ctx.access.requireRole('viewer');
    return ctx.services.positions.read(ctx.em, shareClassId);
  }

  @Query(() => RegisterAtDateView, {
    description:
      "Ops (viewer): the register at the close of a past day (`asOf` YYYY-MM-DD) in the share class's dealing zone: every holder, its wallets, balance, locked part, and the block that closes the day. CSV: GET /ops/register.csv.",
  })
  register(
    @Arg('shareClassId', () => ID) shareClassId: string,
    @Arg('asOf', () => String) asOf: string,
    @Ctx() ctx: ModuleContext<'register'>,
  ): Promise<RegisterAtDate> {
    ctx.access.requireRole('viewer');
    return ctx.services.register.read(ctx.em, shareClassId, asOf);
  }
}
