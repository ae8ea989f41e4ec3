import { DistributionPolicy } from '../modules/distribution/distribution-policy.entity';
import { Distribution, DistributionEntitlement } from '../modules/distribution/distribution.entity';
import { ChainSetup, ChainSigner, ChainTransaction } from '../modules/chain/chain-transaction.entity';
import { ChainFollowCursor, ChainFollowedBlock, ChainMovement, ReconciliationRun } from '../modules/chain/chain-movement.entity';
import { ChainBatchOrder } from '../modules/settlement/chain-batch.entity';
import { NavCompensation } from '../modules/correction/nav-compensation.entity';
import { LotFreeze } from '../modules/settlement/lot-freeze.entity';
import { ForcedTransfer } from '../modules/approval/forced-transfer.entity';
import { SettlementTransferRecord } from '../modules/order/settlement-transfer.entity';
import { DomainEvent } from '../events/event.entity';
import { OpsToken } from '../modules/auth/ops-token.entity';
import { OpsPrincipal } from '../modules/auth/ops-principal.entity';
import { ApiCredential, RefreshToken, TokenFamily } from '../modules/auth/api-credential.entity';
import { Distributor, DistributorHost, DistributorWallet, ShareClassGrant } from '../modules/distributor/distributor.entity';
import { Fund } from '../modules/fund/fund.entity';
import { DealingCalendar } from '../modules/dealing/dealing-calendar.entity';
import { IdempotencyKey } from '../modules/idempotency/idempotency-key.entity';
import { Holding } from '../modules/holding/holding.entity';
import { HoldingLot } from '../modules/holding/holding-lot.entity';
import { HoldingMovement } from '../modules/holding/holding-movement.entity';
import { Investor, InvestorGrant, InvestorWallet } from '../modules/investor/investor.entity';
import { AddressClaim } from '../modules/investor/address-claim.entity';
import { Issuer } from '../modules/issuer/issuer.entity';
import { Nav } from '../modules/nav/nav.entity';
import { Order, OrderStatusEntry } from '../modules/order/order.entity';
import { BankDetails, ShareClassDetails, ShareClassMeta, ShareClassMetrics, ShareClassOverview, SubRedemption } from '../modules/share-class/share-class.parts';
import { ShareClass } from '../modules/share-class/share-class.entity';
import { Token } from '../modules/token/token.entity';
import { Webhook, WebhookAttempt, WebhookDelivery } from '../modules/webhook/webhook.entity';
import { ApprovalRequest } from '../modules/approval/approval-request.entity';
import { AuditLogEntry } from '../modules/audit/audit-log.entity';

/** Every entity of the domain model; the ORM and the migration generator read this list. */
export const ENTITIES = [
  ApprovalRequest,
  AuditLogEntry,
  Issuer,
  Fund,
  ShareClass,
  ShareClassMeta,
  ShareClassDetails,
  ShareClassMetrics,
  ShareClassOverview,
  SubRedemption,
  BankDetails,
  Token,
  Nav,
  Distributor,
  DistributorHost,
  DistributorWallet,
  ShareClassGrant,
  Investor,
  InvestorGrant,
  InvestorWallet,
  AddressClaim,
  Order,
  OrderStatusEntry,
  Holding,
  HoldingLot,
  HoldingMovement,
  DealingCalendar,
  DomainEvent,
  OpsPrincipal,
  OpsToken,
  ApiCredential,
  TokenFamily,
  RefreshToken,
  Webhook,
  WebhookDelivery,
  WebhookAttempt,
  IdempotencyKey,
  ChainTransaction,
  ChainMovement,
  ChainFollowCursor,
  ChainFollowedBlock,
  ChainBatchOrder,
  NavCompensation,
  LotFreeze,
  ForcedTransfer,
  SettlementTransferRecord,
  ReconciliationRun,
  ChainSigner,
  ChainSetup,
  DistributionPolicy,
  Distribution,
  DistributionEntitlement,
];
