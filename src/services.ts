import type { Clock } from './common/clock';
import type { RateLimits } from './access/rate-limit';
import type { Quotas } from './access/quotas';
import { ReadCache } from './persistence/read-cache';
import { developmentJwtConfig, isDevelopmentEnv, type JwtConfig } from './config';
import { AccessTokenService } from './modules/auth/access-token.service';
import { ApiCredentialService } from './modules/auth/api-credential.service';
import { OpsTokenService } from './modules/auth/ops-token.service';
import { ConsoleSessionService } from './modules/auth/console-session.service';
import { DealingService } from './modules/dealing/dealing.service';
import { OnboardingService } from './modules/onboarding/onboarding.service';
import { DistributorService } from './modules/distributor/distributor.service';
import { FundService } from './modules/fund/fund.service';
import { HealthService } from './modules/health/health.service';
import { HoldingLedger } from './modules/holding/holding-ledger';
import { DealingDateSettlement } from './modules/settlement/dealing-settlement';
import { Reconciliation } from './modules/register/reconciliation';
import { PositionsReader } from './modules/register/positions';
import { RegisterAtDateReader } from './modules/register/register-at-date';
import { HoldingService } from './modules/holding/holding.service';
import { InvestorWalletService } from './modules/investor/investor-wallet.service';
import { InvestorService } from './modules/investor/investor.service';
import { IssuerService } from './modules/issuer/issuer.service';
import { NavService } from './modules/nav/nav.service';
import { OneStepOrderService } from './modules/order/one-step.service';
import { openOrders } from './modules/order/open-orders';
import { OrderService } from './modules/order/order.service';
import { TwoStepService } from './modules/order/two-step.service';
import { ShareClassService } from './modules/share-class/share-class.service';
import { findPrimaryToken, TokenService } from './modules/token/token.service';
import { SupplyRegistry } from './supply/http-provider';
import type { SupplyProvidersConfig } from './supply/provider';
import type { EventBus } from './events/pubsub';
import { IdempotencyService } from './modules/idempotency/idempotency.service';
import { EventFeedService } from './transports/graphql/event-feed';
import { WebhookService, type WebhookServiceDeps } from './modules/webhook/webhook.service';
import type { ChainService } from './modules/chain/chain.service';
import { ChainLedger } from './modules/chain/chain-ledger';
import type { TokenLedger } from './ledger/token-ledger';
import { SettlementOnChain } from './modules/settlement/settlement-onchain';
import { OneStepOutcomes } from './modules/settlement/one-step-outcomes';
import { OneStepSettlement } from './modules/settlement/one-step-settlement';
import { WalletOnChain } from './modules/investor/wallet-onchain';
import { WalletFreezes } from './modules/investor/wallet-freeze';
import { refuseClaimedAddress } from './modules/investor/wallet-custody';
import { NavCorrections } from './modules/correction/nav-correction';
import { ApprovalService } from './modules/approval/approval.service';
import { ForcedTransfers } from './modules/approval/forced-transfer';
import { NavConfirmationInbox } from './modules/approval/nav-confirmations';
import { OpsPrincipalRequests } from './modules/approval/ops-principal-requests';
import { EligibilityRequests } from './modules/approval/eligibility-requests';
import { EligibilityService } from './modules/eligibility/eligibility.service';
import { tokenComplianceRules } from './modules/eligibility/token-compliance';
import { holderIneligibility } from './modules/eligibility/eligibility';
import { tokensToFollow } from './modules/token/token-chains.queries';
import type { FollowerPorts } from './modules/chain/follower-ports';
import { LockUpOnChain } from './modules/settlement/lock-up-onchain';
import { AuditLog } from './modules/audit/audit-log';
import { BookService } from './modules/book/book.service';
import { TodayService } from './modules/book/today.queries';
import { DistributionService } from './modules/distribution/distribution.service';
import { DistributionOnChain } from './modules/distribution/distribution-onchain';
import { MODULE_PARTS, OPS_RULES } from './modules/manifests';
import type { AllModuleServices, InfrastructureServices, ServicesByModule } from './access/module-services';
import type { ModuleName } from './access/module-order';

export interface ServiceDeps {
  clock: Clock;
  /** Environment name, reported by /health. */
  env: string;
  jwt?: JwtConfig;
  supply?: SupplyProvidersConfig;
  /** Where committed events are announced (subscriptions; Redis across instances). */
  eventBus: EventBus;
  webhooks: Omit<WebhookServiceDeps, 'clock' | 'events'>;
  /** How long another instance's change may be served stale without Redis (default READ_CACHE_TTL_MS). */
  readCacheTtlMs?: number;
  /** Attempt counters of token requests and ops-token guesses (src/access/rate-limit.ts). */
  rateLimits: RateLimits;
  /** Writes, sockets and subscriptions per principal and address (src/access/quotas.ts). */
  quotas: Quotas;
  /** Lifetime of a new ops token (OPS_TOKEN_TTL_SECONDS; default DEFAULT_OPS_TOKEN_TTL_SECONDS). */
  opsTokenTtlSeconds?: number;
  /** Lifetime of a console session (CONSOLE_SESSION_TTL_SECONDS; default DEFAULT_CONSOLE_SESSION_TTL_SECONDS). */
  consoleSessionTtlSeconds?: number;
  /** RECOVERY_DELAY_SECONDS (default 0). */
  recoveryDelaySeconds?: number;
  /** The chains the gateway writes to (src/modules/chain/); null: none configured. */
  chain?: ChainService | null;
}

/** The transports' own services, which no module calls. */
interface TransportServices {
  eventFeed: EventFeedService;
}

/**
 * Every service of the context: the infrastructure's, the transports' and each module's, owned
 * by the module whose front door declares it (src/access/module-services.ts). A key no one owns
 * is an excess property of the object below, so it does not compile.
 */
export type Services = InfrastructureServices & TransportServices & AllModuleServices;

/** What the chain follower asks of the domain (src/modules/chain/follower-ports.ts): the tokens to follow, and whether a receiver may hold the class. */
export const FOLLOWER_PORTS: FollowerPorts = { tokensOf: tokensToFollow, ineligibility: holderIneligibility };

/** Does not compile while a module's front door declares no row of ServicesByModule, and names it (an empty row is a row). */
type ModulesWithoutServices = Exclude<ModuleName, keyof ServicesByModule>;
const _everyModuleDeclaresItsServices: [ModulesWithoutServices] extends [never] ? true : ModulesWithoutServices = true;

/**
 * One instance of each service per process, wired once here; they hold no request state.
 * Services that need another get the same instance, never a second copy.
 */
export function createServices(deps: ServiceDeps): Services {
  const { clock } = deps;
  const issuer = new IssuerService();
  const readCache = new ReadCache(deps.readCacheTtlMs);
  const shareClass = new ShareClassService(clock, readCache, { primaryToken: findPrimaryToken });
  const nav = new NavService(shareClass, clock, readCache, new NavConfirmationInbox(clock));
  const distributor = new DistributorService(clock, readCache, { refuseClaimedAddress }, !isDevelopmentEnv(deps.env));
  const investor = new InvestorService(distributor);
  const order = new OrderService();
  const supply = new SupplyRegistry(deps.supply ?? {});
  const dealing = new DealingService(clock, readCache, shareClass);
  const ledger = new HoldingLedger({ dealing, openOrders });
  const chain = deps.chain ?? null;
  // The token ledger (src/ledger/token-ledger.ts), the port the domain speaks to, is the chain adapter.
  const tokenLedger: TokenLedger | null = chain ? new ChainLedger(chain) : null;
  // Built with the token ledger, these register their outcome handlers on it (`settlement.*`, `wallet.*`, `lockup.*`, `forced.*`).
  const walletFreezes = new WalletFreezes(tokenLedger, clock, investor);
  const walletOnChain = tokenLedger ? new WalletOnChain(tokenLedger, clock, walletFreezes) : null;
  const outcomes = new OneStepOutcomes({ clock, ledger });
  const lockUp = tokenLedger ? new LockUpOnChain(tokenLedger, dealing, clock) : null;
  const settlement = tokenLedger && lockUp ? new SettlementOnChain(tokenLedger, outcomes, lockUp) : null;
  const investorWallet = new InvestorWalletService(investor, clock, walletOnChain);
  const holding = new HoldingService(shareClass, ledger, clock);
  const forcedTransfers = new ForcedTransfers(tokenLedger, ledger, clock, lockUp);
  const oneStepOrder = new OneStepOrderService({ clock, navs: nav, orders: order, shareClasses: shareClass, dealing, ledger });
  const opsToken = new OpsTokenService(clock, deps.opsTokenTtlSeconds);
  const navCorrections = new NavCorrections({ clock, shareClasses: shareClass, ledger, chain: tokenLedger });
  const approval = new ApprovalService({
    clock,
    investors: investor,
    wallets: investorWallet,
    holdings: holding,
    forcedTransfers,
    navs: nav,
    navCorrections,
    freezes: walletFreezes,
    recoveryDelaySeconds: deps.recoveryDelaySeconds ?? 0,
  });
  const eligibility = new EligibilityService({ investors: investor, chain, kycClaims: walletOnChain?.kycClaims ?? null });
  return {
    clock,
    readCache,
    health: new HealthService(clock, deps.env),
    idempotency: new IdempotencyService(clock),
    eventFeed: new EventFeedService(clock),
    opsToken,
    consoleSession: new ConsoleSessionService(clock, deps.consoleSessionTtlSeconds),
    apiCredential: new ApiCredentialService(clock),
    accessToken: new AccessTokenService(clock, deps.jwt ?? developmentJwtConfig(deps.env), deps.rateLimits),
    rateLimits: deps.rateLimits,
    quotas: deps.quotas,
    issuer,
    fund: new FundService(issuer),
    shareClass,
    token: new TokenService(clock, chain, tokenComplianceRules),
    nav,
    distributor,
    investor,
    investorWallet,
    walletFreezes,
    dealing,
    ledger,
    holding,
    approval,
    navCorrections,
    // Registers the ops principals' request kinds with `approval` (one admin asks, another approves).
    opsPrincipalRequests: new OpsPrincipalRequests(approval, opsToken),
    eligibility,
    // Registers the eligibility request kinds with `approval` (an operator asks, an approver approves).
    eligibilityRequests: new EligibilityRequests(approval, eligibility, investor),
    auditLog: new AuditLog(clock),
    book: new BookService(clock, dealing),
    today: new TodayService(clock, dealing),
    order,
    supply,
    twoStep: new TwoStepService({ shareClasses: shareClass, navs: nav, orders: order, dealing, supply, clock, transfers: settlement }),
    oneStepOrder,
    // Settlement's, passed to the order module's settle and fail mutations (order/one-step-settling.ts).
    oneStepSettlement: new OneStepSettlement({ clock, dealing, orders: order, outcomes, onChain: settlement }),
    oneStepOutcomes: outcomes,
    onboarding: new OnboardingService({ shareClasses: shareClass, navs: nav, dealing, distributors: distributor, supply }),
    chain,
    tokenLedger,
    walletOnChain,
    settlementOnChain: settlement,
    forcedTransfers,
    lockUpOnChain: lockUp,
    dealingSettlement: tokenLedger ? new DealingDateSettlement(tokenLedger, dealing, outcomes, clock) : null,
    reconciliation: tokenLedger ? new Reconciliation(tokenLedger) : null,
    register: new RegisterAtDateReader({ ledger: tokenLedger, dealing, clock }),
    positions: new PositionsReader({ dealing, navs: nav, clock }),
    eventBus: deps.eventBus,
    webhook: new WebhookService({ clock, ...deps.webhooks, events: MODULE_PARTS.webhookEvents }),
    distribution: new DistributionService({ clock, dealing, ledger, onChain: tokenLedger ? new DistributionOnChain(tokenLedger) : null }),
    /** Every module's ops role and duty rules, folded from the manifests (what the console's `me` and `opsDuties` read). */
    opsRules: OPS_RULES,
  };
}
