import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../common/clock';
import type { HoldingLedger, SettleResult } from '../holding';
import { InvestorWallet, WalletStatus } from '../investor';
import { claimTransfer, type Order, OrderType, recordTransition, recordTransitions, type SettlementTransfer, type TransitionActor } from '../order';
import type { AcceptedOrder } from './accepted-order';

/** Why a redemption's settlement fails when the register holds fewer tokens than it burned. */
const SHORT = 'holding is smaller than the tokens to burn';

/**
 * How a locked, accepted one-step order ends: settled (holdings move by the minted or burned
 * tokens through the ledger, in the same transaction, and the transfer hash is recorded) or
 * failed (reason recorded, holdings unchanged). One order at a time (ops, or a single mint or
 * burn at its depth), or a whole batch of a dealing date at once, with the same outcome per order.
 */
export class OneStepOutcomes {
  constructor(private readonly deps: { clock: Clock; ledger: HoldingLedger }) {}

  /**
   * The token transfer of an accepted (and locked) order completed. Tokens land only on a
   * whitelisted wallet: when the delivery wallet is not (or no longer) whitelisted, the order
   * fails instead, with the reason, and holdings stay as they were.
   */
  async settleLocked(
    em: EntityManager,
    order: AcceptedOrder,
    hash: string,
    as: TransitionActor,
    checkWallet = true,
    claim?: SettlementTransfer,
  ): Promise<Order> {
    // One transfer settles one order (a 409 naming the order it settled), before anything moves.
    if (claim) await claimTransfer(em, order.id, claim);
    if (order.type === OrderType.subscription && checkWallet) {
      const whitelisted = await em.findOne(InvestorWallet, {
        investor: order.investor.id,
        chainId: order.chainId,
        address: { $ilike: order.deliveryWallet },
        status: WalletStatus.whitelisted,
      });
      if (!whitelisted) return this.failLocked(em, order, `wallet ${order.deliveryWallet} is not whitelisted on chain ${order.chainId}`, hash, as);
    }
    const now = this.deps.clock.now();
    const moved = await this.deps.ledger.settle(em, { order, tokens: order.settlementTokens, at: now, transferHash: hash });
    const next = afterLedger(order, moved);
    if (next === 'unchanged') return order;
    if (next === 'short') return this.failLocked(em, order, SHORT, hash, as);
    order.transferHash = hash;
    await recordTransition(em, order, { status: 'settled', as, now, details: settledDetails(order, hash) });
    await em.flush();
    return order;
  }

  /**
   * A batch's transfer completed for all its (locked, accepted) orders: each settles exactly as
   * `settleLocked` without its wallet check (the contract checked it), with a few statements for
   * the whole batch. The entities passed in keep their old state (recordTransitions).
   */
  async settleManyLocked(em: EntityManager, orders: AcceptedOrder[], hash: string, as: TransitionActor): Promise<void> {
    const now = this.deps.clock.now();
    const moved = await this.deps.ledger.settleMany(
      em,
      orders.map((order) => ({ order, tokens: order.settlementTokens, at: now, transferHash: hash })),
    );
    const next = orders.map((order) => {
      const answer = moved.get(order.id);
      if (!answer) throw new Error(`the holding ledger did not answer for order ${order.id}`);
      return { order, next: afterLedger(order, answer) };
    });
    await recordTransitions(
      em,
      next
        .filter((o) => o.next === 'settle')
        .map(({ order }) => ({ order, t: { status: 'settled', as, now, details: settledDetails(order, hash) }, fields: { transferHash: hash } })),
    );
    for (const { order } of next.filter((o) => o.next === 'short')) await this.failLocked(em, order, SHORT, hash, as);
  }

  /** The transfer of an accepted (and locked) order failed: reason recorded, holdings unchanged. */
  async failLocked(em: EntityManager, order: Order, reason: string, transferHash: string | undefined, as: TransitionActor): Promise<Order> {
    order.failureReason = reason;
    if (transferHash) order.transferHash = transferHash;
    await recordTransition(em, order, {
      status: 'failed',
      as,
      now: this.deps.clock.now(),
      note: reason,
      details: { reason, transferHash: transferHash ?? null },
    });
    await em.flush();
    return order;
  }
}

/**
 * What the order does once the ledger answered. `already`: this order moved the holding before
 * (the journal says so); an order already past `accepted` records nothing again (no second
 * event), one still `accepted` records its settlement, once, without moving the holding again.
 */
function afterLedger(order: Order, moved: SettleResult): 'settle' | 'short' | 'unchanged' {
  if (moved.outcome === 'short') return 'short';
  if (moved.outcome === 'already' && order.status !== 'accepted') return 'unchanged';
  return 'settle';
}

/** The `settled` event's facts. */
const settledDetails = (order: Order, hash: string) => ({
  transferHash: hash,
  tokens: order.settlementTokens,
  amount: order.settlementAmount,
  chainId: order.chainId,
  walletAddress: order.deliveryWallet,
});
