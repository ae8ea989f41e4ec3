import type { NonEmptyArray } from 'type-graphql';
import { HealthResolver } from '../modules/health/health.resolver';
import { InvestorResolver } from '../modules/investor/investor.resolver';
import { NavResolver } from '../modules/nav/nav.resolver';
import { ShareClassResolver } from '../modules/share-class/share-class.resolver';
import { OrderResolver } from '../modules/order/order.resolver';
import { TwoStepResolver } from '../modules/order/two-step.resolver';

/** Every resolver of the schema, one line per module. */
export const RESOLVERS: NonEmptyArray<Function> = [HealthResolver, ShareClassResolver, NavResolver, InvestorResolver, OrderResolver, TwoStepResolver];
