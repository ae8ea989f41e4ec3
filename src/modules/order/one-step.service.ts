import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../common/clock';
import { badRequest } from '../../common/errors';
import { opaqueId } from '../../common/ids';
import { DECIMAL_COLUMN, Dec } from '../../common/money';
import type { Access } from '../../access/access';
import type { ServiceContext } from '../../access/service-context';
import { nonNegativeDecimal, optional, required } from '../../common/validate';
import type { DealingService } from '../dealing';
import type { HoldingLedger } from '../holding';
import type { NavService } from '../nav';
import type { ShareClassService } from '../share-class';
import { findPrimaryToken, Token } from '../token';
import { orderInvestorShown, refuseForeignWallet, walletFrozenRefusal, walletInUse } from '../investor';
import { assertMove } from './order-states';
import { opsReason } from './ops-reason';
import { readDelivery, readIds, type PlacementInput } from './one-step.input';
import { recordPlacement, recordTransition, type NewOrder } from './order-transition';
import { lockOneStepOrder } from './order-locks';
import { priceAtNav, subscriptionFees } from './order.pricing';
import { Order, OrderFlow, OrderSurface, OrderType } from './order.entity';
import type { OrderRecord, OrderService } from './order.service';
import { placementParties, type PlacementParties } from './placement-parties';
import { refuseIneligible } from '../eligibility';
import { estimatedTokens } from './placement-eligibility';
import { pricingRefusal, refuse } from './placement-prerequisites';
import { noLongerCancellable, noTokenOnChain, tokenCountExceedsHoldings, walletRequiredBeforeSettlement, wrongStatus } from './one-step.errors';

export interface SubscriptionInput extends PlacementInput {
  amount?: string | null;
  currency?: string | null;
}

export interface RedemptionInput extends PlacementInput {
  tokenCount?: string | null;
}

export interface CancelOutcome {
  success: boolean;
  message: string;
}

/** The surface an order is placed through: the caller's; ops place as on surface R. */
const surfaceOf = (access: Access): OrderSurface => (access.surface ?? 'R') as OrderSurface;

/**
 * The one-step order flow of surface R and surface O: placed `pending`; ops accept (priced at
 * the live NAV) or reject; an accepted order settles (holdings move by the minted or burned
 * tokens) or fails, which is settlement's (src/modules/settlement/one-step-settlement.ts). The
 * distributor may cancel while it is pending.
 *
 * Holdings change only through the holding ledger (holding-ledger.ts): a redemption is placed
 * under the holding's lock after the ledger found its tokens free and unlocked, and a settlement
 * moves them through the ledger in the transaction that records it.
 */
export class OneStepOrderService {
  constructor(
    private readonly deps: {
      clock: Clock;
      navs: NavService;
      orders: OrderService;
      shareClasses: ShareClassService;
      dealing: DealingService;
      ledger: HoldingLedger;
    },
  ) {}

  private get clock(): Clock {
    return this.deps.clock;
  }

  async placeSubscription(ctx: ServiceContext, input: SubscriptionInput): Promise<OrderRecord> {
    ctx.access.requireCaller();
    const ids = readIds(ctx.access, input);
    const amount = nonNegativeDecimal(input.amount, 'amount', DECIMAL_COLUMN);
    const currency = optional(input.currency, 'currency');
    if (currency !== undefined && !/^[A-Za-z0-9]{2,12}$/.test(currency)) throw badRequest('currency must be a currency code');
    const delivery = readDelivery(input);
    // No transaction: see placementParties.
    const parties = await placementParties(ctx, this.deps, ids);
    await this.refuseForeign(ctx.em, ctx.access, parties, delivery);
    const now = this.clock.now();
    await refuseIneligible(ctx.em, {
      investorId: parties.investorId,
      shownInvestorId: ctx.access.shownId(parties.investorId, 'investor'),
      shareClassId: parties.shareClass.id,
      tokens: () => estimatedTokens(ctx, this.deps.navs, parties.shareClass, amount),
      now,
    });
    const terms = await this.deps.dealing.subscriptionTerms(ctx, parties.shareClass, { amount, currency, field: 'amount', placedAt: now });
    const fees = { feesSubBps: parties.shareClass.feesSubBps, ...subscriptionFees(amount, parties.shareClass.feesSubBps) };
    return this.place(ctx.em, ctx.access, parties, now, { type: OrderType.subscription, amount, ...fees, ...terms, ...delivery });
  }

  async placeRedemption(ctx: ServiceContext, input: RedemptionInput): Promise<OrderRecord> {
    ctx.access.requireCaller();
    const ids = readIds(ctx.access, input);
    const tokenCount = nonNegativeDecimal(input.tokenCount, 'tokenCount', DECIMAL_COLUMN);
    const delivery = readDelivery(input);
    // A transaction: the holding stays locked until the redemption (its reservation) is placed.
    return ctx.em.transactional(async (em) => {
      const parties = await placementParties({ em, access: ctx.access }, this.deps, ids);
      const { investorId, shareClass } = parties;
      await this.refuseForeign(em, ctx.access, parties, delivery);
      // A wallet an operator froze on the class redeems nothing until an approved unfreeze (409).
      refuse(await walletFrozenRefusal(em, investorId, shareClass.id));
      const now = this.clock.now();
      const dates = await this.deps.dealing.redemptionTerms({ em }, shareClass, now);
      await this.deps.ledger.assertRedeemable(em, { investorId, shareClass, tokens: tokenCount, now }, tokenCountExceedsHoldings);
      return this.place(em, ctx.access, parties, now, {
        type: OrderType.redemption,
        tokenCount,
        currency: shareClass.currency,
        feesRedBps: shareClass.feesRedBps,
        ...dates,
        ...delivery,
      });
    });
  }

  /**
   * The custody rule at placement (wallet-custody.ts): a wallet given on the order must not be
   * registered to anyone else; an address the register does not know is held as the investor's
   * own claim and settles only once ops added and whitelisted it for this investor.
   */
  private async refuseForeign(
    em: EntityManager,
    access: Access,
    parties: PlacementParties,
    delivery: { chainId?: string; walletAddress?: string },
  ): Promise<void> {
    if (!delivery.walletAddress) return;
    const chainId = delivery.chainId ?? parties.shareClass.primaryChainId ?? '';
    await refuseForeignWallet(
      em,
      { investorId: parties.investorId, chainId, address: delivery.walletAddress },
      access.shownId(parties.investorId, 'investor'),
      'input',
    );
  }

  /** A placement of this flow: `pending`, under a fresh `ord_…` id, through the caller's surface. */
  private place(
    em: EntityManager,
    access: Access,
    parties: PlacementParties,
    now: Date,
    order: Pick<NewOrder, 'type'> & Partial<NewOrder>,
  ): Promise<OrderRecord> {
    return recordPlacement(
      em,
      {
        id: opaqueId('ord'),
        flow: OrderFlow.one_step,
        surface: surfaceOf(access),
        distributor: { id: parties.distributorId },
        investor: { id: parties.investorId },
        shareClass: { id: parties.shareClass.id },
        ...order,
      },
      { status: 'pending', as: access.actor, now },
    );
  }

  /** A one-step order the caller may see; a two-step order, unknown or another's: `order not found`. */
  async get(ctx: ServiceContext, orderId: unknown): Promise<Order> {
    return this.deps.orders.visibleOrder(ctx, orderId, OrderFlow.one_step);
  }

  /** `POST /orders/cancel/:orderId`: pending → cancelled; anything later is 409. */
  async cancel(ctx: ServiceContext, orderId: unknown, reason?: unknown): Promise<CancelOutcome> {
    await this.get(ctx, orderId);
    const why = opsReason(ctx, reason);
    return ctx.em.transactional(async (em) => {
      const order = await lockOneStepOrder(em, orderId);
      assertMove(order, 'cancelled', ctx.access.actor, noLongerCancellable);
      await recordTransition(em, order, {
        status: 'cancelled',
        as: ctx.access.actor,
        now: this.clock.now(),
        note: why,
        ...(why ? { details: { reason: why } } : {}),
      });
      await em.flush();
      return { success: true, message: 'order cancelled' };
    });
  }

  /**
   * Ops accept a pending order, pricing it at the live NAV: a subscription's tokens are the
   * amount divided by the NAV, rounded down to the token's decimals; a redemption's proceeds are
   * the tokens times the NAV less the redemption fee (`priceRedemption`). The delivery wallet
   * must be known by now.
   */
  async accept(ctx: ServiceContext, orderId: unknown, note?: string | null): Promise<Order> {
    ctx.access.requireOps();
    return ctx.em.transactional(async (em) => {
      const order = await lockOneStepOrder(em, orderId);
      assertMove(order, 'accepted', 'ops', wrongStatus('accept'));
      const shareClassId = order.shareClass.id;
      const primary = await findPrimaryToken(em, shareClassId);
      const chainId = order.chainId ?? primary?.chainId;
      if (!chainId) throw walletRequiredBeforeSettlement();
      const token = primary?.chainId === chainId ? primary : await em.findOne(Token, { shareClass: shareClassId, chainId });
      if (!token) throw noTokenOnChain(chainId);
      const wallet = order.walletAddress ?? (await walletInUse(em, order.investor.id, chainId))?.address;
      if (!wallet) throw walletRequiredBeforeSettlement();
      await refuseForeignWallet(em, { investorId: order.investor.id, chainId, address: wallet }, orderInvestorShown(order), 'state');

      // The estimate at the live NAV; the order settles at its own dealing date's NAV (OneStepSettlement.settle).
      const nav = await this.deps.navs.latest({ em }, shareClassId);
      refuse(pricingRefusal(nav));
      // Refused above when there is none.
      const live = nav!;
      priceAtNav(order, live, token.decimals, order.shareClass.currency);
      // Eligibility again, with the tokens now priced: the rules or the investor may have changed since placement.
      if (order.type === OrderType.subscription)
        await refuseIneligible(em, {
          investorId: order.investor.id,
          shownInvestorId: orderInvestorShown(order),
          shareClassId,
          tokens: new Dec(order.settlementTokens ?? '0'),
          exceptOrderId: order.id,
          now: this.clock.now(),
        });
      order.chainId = chainId;
      order.deliveryWallet = wallet;
      await recordTransition(em, order, {
        status: 'accepted',
        as: 'ops',
        now: this.clock.now(),
        note: note ?? undefined,
        details: {
          nav: order.settlementNav,
          tokens: order.settlementTokens,
          amount: order.settlementAmount,
          currency: order.currency,
          chainId,
          walletAddress: wallet,
        },
      });
      await em.flush();
      return order;
    });
  }

  /** Ops decline a pending order; nothing further happens. */
  async reject(ctx: ServiceContext, orderId: unknown, reason: unknown): Promise<Order> {
    ctx.access.requireOps();
    // The distributor is told why (order.rejected): a rejection without one is refused.
    const note = required(reason, 'reason').trim();
    return ctx.em.transactional(async (em) => {
      const order = await lockOneStepOrder(em, orderId);
      assertMove(order, 'rejected', 'ops', wrongStatus('reject'));
      await recordTransition(em, order, { status: 'rejected', as: 'ops', now: this.clock.now(), note, details: { reason: note } });
      await em.flush();
      return order;
    });
  }
}
