import type { NonEmptyArray } from 'type-graphql';
import { HealthResolver } from '../modules/health/health.resolver';
import { InvestorResolver } from '../modules/investor/investor.resolver';
import { NavResolver } from '../modules/nav/nav.resolver';
import { ShareClassResolver } from '../modules/share-class/share-class.resolver';

/** Every resolver of the schema, one line per module. */
export const RESOLVERS: NonEmptyArray<Function> = [HealthResolver, ShareClassResolver, NavResolver, InvestorResolver];

// Ops provisioning (issue 2): one line per module.
import { IssuerResolver } from '../modules/issuer/issuer.resolver';
import { FundResolver } from '../modules/fund/fund.resolver';
import { ShareClassOpsResolver } from '../modules/share-class/share-class.resolver';
import { TokenResolver } from '../modules/token/token.resolver';
import { DistributorHostResolver, DistributorResolver, DistributorWalletResolver, ShareClassGrantResolver } from '../modules/distributor/distributor.resolver';
import { InvestorOpsResolver, InvestorWalletResolver } from '../modules/investor/investor.resolver';
(RESOLVERS as Function[]).push(
  IssuerResolver,
  FundResolver,
  ShareClassOpsResolver,
  TokenResolver,
  DistributorResolver,
  DistributorHostResolver,
  DistributorWalletResolver,
  ShareClassGrantResolver,
  InvestorOpsResolver,
  InvestorWalletResolver,
);
