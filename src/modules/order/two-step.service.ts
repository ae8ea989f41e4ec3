import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../common/clock';
import { documentedId, ID_PREFIXES } from '../../common/ids';
import { logger } from '../../common/logger';
import { DECIMAL_COLUMN } from '../../common/money';
import type { ServiceContext } from '../../access/service-context';
import { notNegative, optional, requiredDecimal } from '../../common/validate';
import { SupplyUnavailableError } from '../../supply/provider';
import type { SupplyRegistry } from '../../supply/http-provider';
import { DeliveryMode } from '../distributor';
import type { DealingService } from '../dealing';
import type { NavService } from '../nav';
import { ShareClass, type ShareClassService } from '../share-class';
import { Order, OrderFlow, OrderSurface, OrderType } from './order.entity';
import type { OrderRecord, OrderService } from './order.service';
import { recordPlacement, recordTransition } from './order-transition';
import { placementParties } from './placement-parties';
import { refuseIneligible } from '../eligibility';
import { estimatedTokens } from './placement-eligibility';
import { holdWalletRefusal, investorPrerequisiteRefusal, refuse } from './placement-prerequisites';
import { supplyRequest } from './supply-request';
import { SupplyOutcomes, type SupplyOutcomeInput, type SupplyTransferCheck } from './supply-outcomes';
import { cannotCancel, cannotPush, providerNotConfigured, pushInProgress, supplyRejected, supplyUnavailable } from './two-step.errors';
import { priceSubscription } from './order.pricing';
import { assertMove } from './order-states';
import { opsReason } from './ops-reason';
import { CANCEL_PATIENCE_MS, orderClaims, Patience, PushClaims } from './push-claim';

export interface CreateSubscriptionInput {
  distributorId?: unknown;
  investorId?: unknown;
  shareClassId?: unknown;
  amountSubscription?: unknown;
  currency?: unknown;
  externalRef?: unknown;
}

/**
 * The R-two-step flow: a priced subscription is `created`, then pushed to the share class's
 * supply-side platform (`submitted`) or cancelled; the platform's later outcomes are reflected
 * into its history. REST (surface R) and GraphQL both come here.
 *
 * Push and cancel race through the claim protocol of push-claim.ts: exactly one wins. After an
 * accepted push the losers get the documented 409 (`… in status "submitted" …`); after a
 * rejected one the order is still `created` and they proceed. Cancel takes the order's row lock,
 * so it serialises with the claim and with the recording of a push's outcome.
 */
export class TwoStepService {
  constructor(
    private readonly deps: {
      shareClasses: ShareClassService;
      navs: NavService;
      orders: OrderService;
      dealing: DealingService;
      supply: SupplyRegistry;
      clock: Clock;
      /** Checks a reported settlement's transfer on chain (src/modules/settlement/settlement-onchain.ts); absent: no chain is read. */
      transfers?: SupplyTransferCheck | null;
    },
  ) {
    this.claims = new PushClaims(deps.clock);
    this.outcomes = new SupplyOutcomes(deps);
  }

  private readonly claims: PushClaims;
  private readonly outcomes: SupplyOutcomes;

  /** `POST /orders/subscribe` with `amountSubscription`: a priced order, status `created`. */
  async create(ctx: ServiceContext, input: CreateSubscriptionInput): Promise<OrderRecord> {
    ctx.access.requireCaller();
    const em = ctx.em;
    // 1. required fields, in the description's order
    const distributorId = documentedId(input.distributorId, 'distributorId', ID_PREFIXES.distributorId);
    const investorId = documentedId(input.investorId, 'investorId', ID_PREFIXES.investorId);
    const shareClassId = documentedId(input.shareClassId, 'shareClassId', ID_PREFIXES.shareClassId);
    const amountIn = requiredDecimal(input.amountSubscription, 'amountSubscription', DECIMAL_COLUMN);
    const currencyIn = optional(input.currency, 'currency');
    const externalRef = optional(input.externalRef, 'externalRef');

    // 2. the records it names; another distributor's answer exactly like missing ones
    const parties = await placementParties(ctx, this.deps, {
      distributorId: ctx.access.recordId(distributorId, 'distributor'),
      investorId: ctx.access.recordId(investorId, 'investor'),
      shareClassId,
    });
    const { shareClass, deliveryMode } = parties;

    // 3. the investor's prerequisites (set by operations)
    refuse(investorPrerequisiteRefusal(parties));
    // Refused above without them.
    const chainId = shareClass.primaryChainId!;
    const tokenDecimals = shareClass.primaryTokenDecimals!;
    const investorWallet = parties.investorWallet!;

    // 4. the amount
    const amount = notNegative(amountIn, 'amountSubscription');

    let deliveryWallet = investorWallet;
    if (deliveryMode === DeliveryMode.hold) {
      refuse(holdWalletRefusal(deliveryMode, parties.distributorWallet, chainId));
      deliveryWallet = parties.distributorWallet!;
    }

    // 5. who may hold the class (the one eligibility check, src/modules/eligibility/eligibility.ts)
    const now = this.deps.clock.now();
    await refuseIneligible(em, {
      investorId: parties.investorId,
      shownInvestorId: ctx.access.shownId(parties.investorId, 'investor'),
      shareClassId: shareClass.id,
      tokens: () => estimatedTokens(ctx, this.deps.navs, shareClass, amount),
      now,
    });

    // 6. the dealing rules: currency, minimum investment, dealing and settlement dates
    const { currency, ...dates } = await this.deps.dealing.subscriptionTerms(ctx, shareClass, {
      amount,
      currency: currencyIn,
      field: 'amountSubscription',
      placedAt: now,
    });
    const nav = await this.deps.navs.latestRecord(ctx, shareClass.id);
    const price = priceSubscription({ amount: amount.toFixed(), feesSubBps: shareClass.feesSubBps, nav: nav?.close ?? null, tokenDecimals });

    return recordPlacement(
      em,
      {
        id: null,
        flow: OrderFlow.two_step,
        surface: OrderSurface.R,
        type: OrderType.subscription,
        distributor: { id: parties.distributorId },
        investor: { id: parties.investorId },
        shareClass: { id: shareClass.id },
        currency,
        amount: amount.toFixed(),
        feesSubBps: shareClass.feesSubBps,
        amountFeesTotal: price.amountFeesTotal,
        amountPayable: price.amountPayable,
        nav: price.nav ?? undefined,
        navPublishedAt: price.nav && nav ? nav.publishedAt : undefined,
        amountTokensEstimated: price.amountTokensEstimated ?? undefined,
        deliveryMode,
        deliveryWallet,
        chainId,
        walletAddress: investorWallet,
        externalRef,
        ...dates,
      },
      { status: 'created', as: ctx.access.actor, now },
    );
  }

  /** A two-step order the caller may see; anything else answers `order not found`. */
  async get(ctx: ServiceContext, orderId: unknown): Promise<Order> {
    return this.deps.orders.visibleOrder(ctx, orderId, OrderFlow.two_step);
  }

  /** `POST /orders/subscriptions/push/:orderId`: send to the share class's provider (see the class comment). */
  async push(ctx: ServiceContext, orderId: unknown): Promise<Order> {
    ctx.access.requireCaller();
    const em = ctx.em;
    const order = await this.get(ctx, orderId);
    assertMove(order, 'submitted', ctx.access.actor, cannotPush);
    const shareClass = await em.findOneOrFail(ShareClass, { id: order.shareClass.id });
    const provider = this.deps.supply.get(shareClass.provider);
    if (!provider) throw providerNotConfigured(shareClass.provider);
    const leaseMs = this.claims.leaseOf(this.deps.supply.timeoutMs(provider.id));
    const store = orderClaims(em);

    // 1. claim: exactly one pusher gets past this per outcome
    const claim = await this.claims.claim(store, order.id, leaseMs, { notCreated: cannotPush, tooLong: pushInProgress });

    // 2. the exchange with the provider, no transaction open
    let submission;
    try {
      const fresh = await em.findOneOrFail(Order, { id: order.id }, { refresh: true });
      submission = await provider.submit(supplyRequest(fresh, shareClass));
    } catch (err) {
      await this.claims.release(store, order.id, claim);
      if (err instanceof SupplyUnavailableError) {
        logger.warn({ orderId: order.id, provider: provider.id, reason: err.reason }, 'push: no decision from the supply side');
        throw supplyUnavailable(err.message);
      }
      throw err;
    }
    if (submission.outcome === 'rejected') {
      await this.claims.release(store, order.id, claim);
      logger.info({ orderId: order.id, provider: provider.id, reason: submission.reason }, 'push rejected by the supply side');
      throw supplyRejected(submission.reason);
    }

    // 3. record the acceptance in a short transaction, if the claim is still ours
    await em.transactional(async (tem) => {
      const locked = await tem.findOneOrFail(Order, { id: order.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (locked.pushClaim !== claim) {
        // Only after our lease ran out and another pusher took over: it records its own outcome.
        logger.error({ orderId: order.id, provider: provider.id, orderReference: submission.orderReference }, 'push outlived its claim; outcome not recorded');
        throw cannotPush(locked.status);
      }
      const now = this.deps.clock.now();
      locked.supplyRefs = {
        ...(locked.supplyRefs ?? {}),
        [provider.id]: { orderReference: submission.orderReference, submittedAt: now.getTime(), raw: submission.exchange },
      };
      locked.pushClaim = null;
      locked.pushClaimedAt = null;
      await recordTransition(tem, locked, {
        status: 'submitted',
        as: ctx.access.actor,
        now,
        note: `Pushed to ${provider.id}; orderReference ${submission.orderReference}`,
        details: { provider: provider.id, orderReference: submission.orderReference },
      });
      await tem.flush();
    });
    return em.findOneOrFail(Order, { id: order.id }, { refresh: true });
  }

  /** `POST /orders/subscriptions/cancel/:orderId`: `created` → `cancelled`, the note in history. */
  async cancel(ctx: ServiceContext, orderId: unknown, note?: unknown): Promise<Order> {
    ctx.access.requireCaller();
    const em = ctx.em;
    const order = await this.get(ctx, orderId);
    const text = opsReason(ctx, note, 'note');
    assertMove(order, 'cancelled', ctx.access.actor, cannotCancel);
    const patience = new Patience(CANCEL_PATIENCE_MS);
    for (;;) {
      const busyLease = await em.transactional(async (tem) => {
        const locked = await tem.findOneOrFail(Order, { id: order.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
        assertMove(locked, 'cancelled', ctx.access.actor, cannotCancel);
        const leaseMs = await this.leaseOf(tem, locked);
        if (this.claims.isLive({ claim: locked.pushClaim ?? null, claimedAt: locked.pushClaimedAt ?? null }, leaseMs)) return leaseMs;
        locked.pushClaim = null;
        locked.pushClaimedAt = null;
        await recordTransition(tem, locked, { status: 'cancelled', as: ctx.access.actor, now: this.deps.clock.now(), note: text });
        await tem.flush();
        return 0;
      });
      if (!busyLease) break;
      // A push is talking to the provider: its outcome decides whether this cancel still applies.
      await this.claims.waitForOutcome(orderClaims(em), order.id, busyLease, patience, pushInProgress);
    }
    return em.findOneOrFail(Order, { id: order.id }, { refresh: true });
  }

  /** Ops (GraphQL): reflect a supply-side outcome into statusHistory (supply-outcomes.ts). */
  async recordSupplyOutcome(ctx: ServiceContext, input: SupplyOutcomeInput): Promise<Order> {
    ctx.access.requireOps();
    return this.outcomes.apply(ctx.em, null, input);
  }

  /**
   * The provider's own callback (src/supply/callback.routes.ts), its signature already checked:
   * it may only speak of orders it was pushed, by the reference it gave.
   */
  async recordProviderCallback(em: EntityManager, providerId: string, input: SupplyOutcomeInput): Promise<Order> {
    return this.outcomes.apply(em, providerId, input);
  }

  private async leaseOf(em: EntityManager, order: Order): Promise<number> {
    const sc = await em.findOneOrFail(ShareClass, { id: order.shareClass.id });
    return this.claims.leaseOf(this.deps.supply.timeoutMs(sc.provider));
  }
}
