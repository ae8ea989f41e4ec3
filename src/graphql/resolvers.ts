import type { NonEmptyArray } from 'type-graphql';
import { HealthResolver } from '../modules/health/health.resolver';
import { InvestorResolver } from '../modules/investor/investor.resolver';
import { NavResolver } from '../modules/nav/nav.resolver';
import { ShareClassResolver } from '../modules/share-class/share-class.resolver';
import { AuthResolver } from '../modules/auth/auth.resolver';
import { HoldingResolver } from '../modules/holding/holding.resolver';
import { UserResolver } from '../modules/investor/user.resolver';
import { OneStepOrderResolver } from '../modules/order/one-step.resolver';

/** Every resolver of the schema, one line per module. */
export const RESOLVERS: NonEmptyArray<Function> = [HealthResolver, ShareClassResolver, NavResolver, InvestorResolver, AuthResolver, UserResolver, HoldingResolver, OneStepOrderResolver];
