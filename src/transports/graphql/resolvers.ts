import type { NonEmptyArray } from 'type-graphql';
import { AuthResolver } from '../../modules/auth/auth.resolver';
import {
  DistributorHostResolver,
  DistributorResolver,
  DistributorWalletResolver,
  ShareClassGrantResolver,
} from '../../modules/distributor/distributor.resolver';
import { DealingResolver } from '../../modules/dealing/dealing.resolver';
import { FundResolver } from '../../modules/fund/fund.resolver';
import { HealthResolver } from '../../modules/health/health.resolver';
import { HoldingResolver } from '../../modules/holding/holding.resolver';
import { InvestorOpsResolver, InvestorResolver, InvestorWalletResolver } from '../../modules/investor/investor.resolver';
import { UserResolver } from '../../modules/investor/user.resolver';
import { IssuerResolver } from '../../modules/issuer/issuer.resolver';
import { NavResolver } from '../../modules/nav/nav.resolver';
import { NavCorrectionResolver } from '../../modules/correction/nav-correction.resolver';
import { DistributorOnboardingResolver, ShareClassOnboardingResolver } from '../../modules/onboarding/onboarding.resolver';
import { ChainActivityResolver } from '../../modules/onboarding/chain-activity.resolver';
import { OneStepOrderResolver } from '../../modules/order/one-step.resolver';
import { OrderResolver } from '../../modules/order/order.resolver';
import { TwoStepResolver } from '../../modules/order/two-step.resolver';
import { ShareClassOpsResolver, ShareClassResolver } from '../../modules/share-class/share-class.resolver';
import { TokenResolver } from '../../modules/token/token.resolver';
import { WebhookAttemptResolver, WebhookDeliveryResolver, WebhookResolver } from '../../modules/webhook/webhook.resolver';
import { SubscriptionResolver } from './subscriptions.resolver';
import { EventFeedResolver } from './event-feed.resolver';
import { ChainTransactionResolver } from '../../modules/chain/chain.resolver';
import { OrderChainResolver } from '../../modules/settlement/order-chain.resolver';
import { ApprovalResolver } from '../../modules/approval/approval.resolver';
import { OpsPrincipalResolver } from '../../modules/approval/ops-principal.resolver';
import { AuditLogResolver } from '../../modules/audit/audit-log.resolver';
import { BookResolver } from '../../modules/book/book.resolver';
import { ChainInfoResolver } from '../../modules/chain/chain-info.resolver';
import { DealingSettlementResolver } from '../../modules/settlement/dealing-settlement.resolver';
import { ReconciliationResolver } from '../../modules/chain/reconciliation.resolver';
import { DistributionResolver } from '../../modules/distribution/distribution.resolver';
import { RegisterResolver } from '../../modules/register/register.resolver';

/** Every resolver of the schema, grouped by module. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- type-graphql's buildSchema takes resolvers as NonEmptyArray<Function>
export const RESOLVERS: NonEmptyArray<Function> = [
  HealthResolver,
  IssuerResolver,
  FundResolver,
  ShareClassResolver,
  ShareClassOpsResolver,
  DealingResolver,
  TokenResolver,
  NavResolver,
  NavCorrectionResolver,
  DistributorResolver,
  DistributorHostResolver,
  DistributorWalletResolver,
  ShareClassGrantResolver,
  ShareClassOnboardingResolver,
  DistributorOnboardingResolver,
  InvestorResolver,
  InvestorOpsResolver,
  InvestorWalletResolver,
  UserResolver,
  HoldingResolver,
  AuthResolver,
  OrderResolver,
  TwoStepResolver,
  OneStepOrderResolver,
  WebhookResolver,
  WebhookDeliveryResolver,
  WebhookAttemptResolver,
  SubscriptionResolver,
  EventFeedResolver,
  OrderChainResolver,
  DealingSettlementResolver,
  DistributionResolver,
  ReconciliationResolver,
  RegisterResolver,
  ChainTransactionResolver,
  ChainActivityResolver,
  ApprovalResolver,
  OpsPrincipalResolver,
  AuditLogResolver,
  BookResolver,
  ChainInfoResolver,
];
