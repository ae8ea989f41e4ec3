import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../common/clock';
import { badRequest, conflict } from '../../common/errors';
import type { ServiceContext } from '../../access/service-context';
import { optional, required } from '../../common/validate';
import type { DealingService } from '../dealing';
import { notInvestorsWallet, orderInvestorShown, walletCustody } from '../investor';
import { assertMove, lockOneStepOrder, noTokenOnChain, Order, OrderFlow, type OrderService, OrderType, priceAtNav, wrongStatus } from '../order';
import { ShareClass } from '../share-class';
import { Token } from '../token';
import { acceptedOrder, type AcceptedOrder } from './accepted-order';
import { navOfDealingDate } from './dealing-pricing';
import type { OneStepOutcomes } from './one-step-outcomes';
import { refuseIneligible } from '../eligibility';
import { Dec } from '../../common/money';
import type { SettlementOnChain } from './settlement-onchain';

const TRANSFER_HASH = /^0x[0-9a-fA-F]{64}$/;

/**
 * Ops settle or fail one accepted one-step order (`settleOneStepOrder`, `failOneStepOrder`); the
 * order's placement, acceptance and cancellation are the order flow's (src/modules/order/one-step.service.ts).
 */
export class OneStepSettlement {
  constructor(
    private readonly deps: {
      clock: Clock;
      dealing: DealingService;
      orders: OrderService;
      outcomes: OneStepOutcomes;
      /** Settlement on chain (settlement-onchain.ts); absent: ops give the transfer hash. */
      onChain: SettlementOnChain | null;
    },
  ) {}

  /**
   * Ops settle an accepted order, priced at its own dealing date's NAV by the one pricing rule
   * (`priceAtNav`, as a dealing date's run prices it; a 409 naming the date while that NAV is not
   * published), to a wallet the custody rule finds the investor's own (a 409 otherwise; nothing
   * written or sent). Without a hash, on a chain the gateway writes to: the order's mint or burn is
   * queued as a transaction intent (settlement-onchain.ts) in the same transaction, and the order
   * settles or fails at the chain's confirmation depth. With a hash (settled elsewhere): checked on
   * chain when the chain is readable (the transfer of the repriced tokens), then recorded; a
   * transfer settles one order (src/modules/order/settlement-transfers.ts).
   */
  async settle(ctx: ServiceContext, orderId: unknown, transferHash: unknown): Promise<Order> {
    ctx.access.requireOps();
    const hash = optional(transferHash, 'transferHash');
    if (hash !== undefined && !TRANSFER_HASH.test(hash)) throw badRequest('transferHash must be a 0x-prefixed 32-byte hex string');
    const { onChain, outcomes } = this.deps;
    if (hash === undefined) {
      if (!onChain) throw badRequest('transferHash is required');
      const seen = await this.visible(ctx, orderId);
      if (seen.chainId) await onChain.ready(seen.chainId);
      return ctx.em.transactional(async (em) => {
        const order = await this.lockAccepted(em, orderId);
        await this.priceAndGuard(em, order, 'send');
        await onChain.start(em, order);
        await em.flush();
        return order;
      });
    }
    const checked = await this.visible(ctx, orderId);
    let logIndexes: number[] | null = null;
    if (checked.status === 'accepted') {
      // Priced on a fork: the transfer checked on chain is of the tokens the order settles with.
      const fork = ctx.em.fork();
      const copy = acceptedOrder(await fork.findOneOrFail(Order, { id: checked.id }));
      await this.priceAndGuard(fork, copy, 'hash');
      if (onChain) logIndexes = await onChain.verifyHash(fork, copy, hash);
    }
    return ctx.em.transactional(async (em) => {
      const order = await this.lockAccepted(em, orderId);
      await this.priceAndGuard(em, order, 'hash');
      return outcomes.settleLocked(em, order, hash, 'ops', true, { chainId: order.chainId, hash, logIndexes });
    });
  }

  /** The transfer of an accepted order failed (revert, out-of-gas…): reason recorded, holdings unchanged. */
  async fail(ctx: ServiceContext, orderId: unknown, reason: unknown, transferHash?: unknown): Promise<Order> {
    ctx.access.requireOps();
    const why = required(reason, 'reason');
    const hash = optional(transferHash, 'transferHash');
    if (hash !== undefined && !TRANSFER_HASH.test(hash)) throw badRequest('transferHash must be a 0x-prefixed 32-byte hex string');
    return ctx.em.transactional(async (em) => {
      const order = await lockOneStepOrder(em, orderId);
      assertMove(order, 'failed', 'ops', wrongStatus('fail'));
      return this.deps.outcomes.failLocked(em, order, why, hash, 'ops');
    });
  }

  private visible(ctx: ServiceContext, orderId: unknown): Promise<Order> {
    return this.deps.orders.visibleOrder(ctx, orderId, OrderFlow.one_step);
  }

  /** The order locked, which must be one ops may settle now: accepted (a 409 naming its status otherwise). */
  private async lockAccepted(em: EntityManager, orderId: unknown): Promise<AcceptedOrder> {
    const order = await lockOneStepOrder(em, orderId);
    assertMove(order, 'settled', 'ops', wrongStatus('settle'));
    return acceptedOrder(order);
  }

  /**
   * The order priced at its dealing date's NAV (the rule of a dealing date's run), and the custody
   * rule on its delivery wallet, before any value moves: a wallet registered to anyone else is a
   * 409; so is one that is not the investor's own in use when the gateway is to send (`send`) or a
   * redemption is reported burned (`hash`). A subscription reported minted to the investor's own
   * wallet that is not whitelisted fails with that reason (OneStepOutcomes.settleLocked).
   */
  private async priceAndGuard(em: EntityManager, order: AcceptedOrder, path: 'send' | 'hash'): Promise<void> {
    if (order.dealingDate) {
      const shareClass = await em.findOneOrFail(ShareClass, { id: order.shareClass.id });
      const nav = await navOfDealingDate(em, this.deps.dealing, shareClass, order.dealingDate, this.deps.clock.now());
      const token = await em.findOne(Token, { shareClass: shareClass.id, chainId: order.chainId }, { orderBy: { isPrimary: 'desc' } });
      if (!token) throw noTokenOnChain(order.chainId);
      priceAtNav(order, nav, token.decimals, shareClass.currency);
    }
    const custody = await walletCustody(em, { investorId: order.investor.id, chainId: order.chainId, address: order.deliveryWallet });
    if (custody === 'foreign' || (custody === 'unknown' && (path === 'send' || order.type === OrderType.redemption)))
      throw conflict(notInvestorsWallet(orderInvestorShown(order)));
    // The gateway mints only to an investor still eligible (an expired KYC, a rule changed since acceptance): a 409, nothing sent.
    if (path === 'send' && order.type === OrderType.subscription)
      await refuseIneligible(em, {
        investorId: order.investor.id,
        shownInvestorId: orderInvestorShown(order),
        shareClassId: order.shareClass.id,
        tokens: new Dec(order.settlementTokens ?? '0'),
        exceptOrderId: order.id,
        now: this.deps.clock.now(),
      });
  }
}
