import type { EntityManager } from '@mikro-orm/postgresql';
import { badRequest, conflict, forbidden } from '../../common/errors';
import { lockOneStepOrder, lockOneStepOrders, type Order, OrderType, recordTransfers } from '../order';
import type { Token } from '../token';
import { NO_ADDRESS, type LedgerIntent, type LedgerOutcome, type TokenLedger } from '../../ledger/token-ledger';
import { acceptedOrder, settlingToken, unitsOf, type AcceptedOrder } from './accepted-order';
import { orderDutyRefusals } from './order-duties';
import { splitBatch } from './batch-intents';
import { orderCorrelation, orderOfCorrelation } from './order-correlation';
import { ChainBatchOrder } from './chain-batch.entity';
import type { OneStepOutcomes } from './one-step-outcomes';
import type { LockUpOnChain } from './lock-up-onchain';

/** Who the order's history names for what the chain decided. */
const CHAIN_ACTOR = 'chain' as const;

/**
 * Settlement of one-step orders on chain: an accepted order's tokens are minted to (subscription)
 * or burned from (redemption) its delivery wallet, in the token's decimals, through one intent
 * per order (a unique index: never two). The sender checks the call first (a revert fails the
 * order with the contract's reason, e.g. `Identity is not verified.`, nothing sent); at the
 * confirmation depth the order settles (holdings move, `token.transfer_completed` with the hash)
 * or fails (reverted, out of gas: `token.transfer_failed` with the reason, holdings unchanged).
 */
export class SettlementOnChain {
  constructor(
    private readonly chain: TokenLedger,
    private readonly outcomes: OneStepOutcomes,
    private readonly lockUp: LockUpOnChain,
  ) {
    // Every `settlement.*` intent (one order's mint or burn, a dealing date's batch) ends here.
    chain.onOutcome('settlement', (em, tx, outcome) => this.onOutcome(em, tx, outcome));
  }

  /** A 503 while the order's chain does not answer: nothing is queued for a chain that is away. */
  async ready(chainId: string): Promise<void> {
    if (this.chain.writes(chainId)) await this.chain.reachable(chainId);
  }

  /**
   * Queues the accepted, locked order's mint or burn; the order settles at the confirmation depth.
   * Segregation of duties first (order-duties.ts): one ops principal that took every step of the
   * order is refused (403), and nothing is queued.
   */
  async start(em: EntityManager, order: AcceptedOrder): Promise<void> {
    if (!this.chain.writes(order.chainId)) throw badRequest('transferHash is required');
    if (await em.findOne(ChainBatchOrder, { orderId: order.id })) throw conflict(`order ${order.id} is being settled with its dealing date's batch`);
    const refusal = (await orderDutyRefusals(em, [order.id])).get(order.id);
    if (refusal) throw forbidden(refusal);
    const token = await settlingToken(em, order);
    const mint = order.type === OrderType.subscription;
    this.chain.intend(
      em,
      { chainId: order.chainId, purpose: mint ? 'settlement.mint' : 'settlement.burn', correlation: orderCorrelation(order.id) },
      { op: mint ? 'mint' : 'burn', token: token.contractAddress, wallet: order.deliveryWallet, units: unitsOf({ order, token }) },
    );
  }

  /**
   * A hash given by ops: when the chain is readable, the transaction must have succeeded and
   * carry a `Transfer` of this token from 0x0 to the wallet (subscription) or from the wallet to
   * 0x0 (redemption) of exactly the order's tokens.
   */
  async verifyHash(em: EntityManager, order: AcceptedOrder, hash: string): Promise<number[] | null> {
    if (!this.chain.reads(order.chainId)) return null;
    const token = await settlingToken(em, order);
    const mint = order.type === OrderType.subscription;
    const wallet = order.deliveryWallet.toLowerCase();
    return this.checkTransfer(order.chainId, token, hash, mint ? [NO_ADDRESS, wallet] : [wallet, NO_ADDRESS], unitsOf({ order, token }));
  }

  /**
   * A settlement the supply-side platform reports for a two-step order (src/modules/order/two-step.service.ts):
   * on a chain the gateway reads, the transaction must have succeeded and carry a `Transfer` of
   * the share class's token to the order's delivery wallet (subscription) or from it
   * (redemption); else a 400 saying what did not match. Unreadable chain: nothing to check.
   */
  async verifySupplyTransfer(em: EntityManager, order: Order, hash: string): Promise<number[] | null> {
    if (!order.chainId || !this.chain.reads(order.chainId) || !order.deliveryWallet) return null;
    const token = await settlingToken(em, { shareClass: order.shareClass, chainId: order.chainId });
    const wallet = order.deliveryWallet.toLowerCase();
    return this.checkTransfer(order.chainId, token, hash, order.type === OrderType.subscription ? [null, wallet] : [wallet, null]);
  }

  /**
   * The receipt of `hash` shows a successful `Transfer` of `token` from/to (null: any) of `amount`
   * units (if given): the log indexes of the matching transfers; else a 400 naming the mismatch.
   * A node that does not answer is a 503 (unreachable), not a transaction missing.
   */
  private async checkTransfer(chainId: string, token: Token, hash: string, [from, to]: [string | null, string | null], amount?: bigint): Promise<number[]> {
    const receipt = await this.chain.receiptTransfers(chainId, hash, token.contractAddress);
    if (!receipt.found) throw badRequest(`transaction ${hash} is not on chain ${chainId}`);
    if (!receipt.ok) throw badRequest(`transaction ${hash} reverted`);
    const { transfers } = receipt;
    if (!transfers.length) throw badRequest(`transaction ${hash} has no Transfer of token ${token.contractAddress}`);
    const ours = transfers.filter((e) => (from === null || e.from === from) && (to === null || e.to === to));
    if (!ours.length)
      throw badRequest(`transaction ${hash} has no Transfer of token ${token.contractAddress} ${from ? `from ${from} ` : ''}${to ? `to ${to}` : ''}`.trimEnd());
    const exact = amount === undefined ? ours : ours.filter((e) => e.value === amount);
    if (!exact.length) throw badRequest(`transaction ${hash} transfers ${ours.map((e) => e.value).join(', ')} units, the order's tokens are ${amount} units`);
    return exact.map((e) => e.logIndex);
  }

  /**
   * The order settles or fails, once, with the intent that reached its depth. A batch's orders
   * (dealing-settlement.ts) settle together, each with its own event naming the batch's hash, in
   * a few statements for the whole batch; a batch that failed goes again in halves
   * (batch-intents.ts) until the row that made it fail is alone, and only that order fails.
   */
  async onOutcome(em: EntityManager, tx: LedgerIntent, outcome: LedgerOutcome): Promise<void> {
    await this.decideAll(em, tx, outcome);
    // The minted lots still in lock-up are frozen in the same transaction that booked them.
    await this.lockUp.freezeMinted(em, tx, outcome);
  }

  private async decideAll(em: EntityManager, tx: LedgerIntent, outcome: LedgerOutcome): Promise<void> {
    const orderId = orderOfCorrelation(tx.correlation);
    if (orderId) return this.decide(em, orderId, tx, outcome);
    const rows = await em.find(ChainBatchOrder, { transactionId: tx.id }, { orderBy: { orderId: 'asc' } });
    const locked = new Map(
      (
        await lockOneStepOrders(
          em,
          rows.map((r) => r.orderId),
        )
      ).map((o) => [o.id, o]),
    );
    // Only orders still accepted: one decided otherwise meanwhile is left as it is.
    const orders = rows.flatMap((r) => {
      const order = locked.get(r.orderId);
      return order?.status === 'accepted' ? [{ order: acceptedOrder(order), units: BigInt(r.units) }] : [];
    });
    if (outcome.ok) {
      await this.recordLogs(em, tx, outcome, orders);
      return this.outcomes.settleManyLocked(
        em,
        orders.map((o) => o.order),
        outcome.hash,
        CHAIN_ACTOR,
      );
    }
    if (orders.length > 1) {
      await splitBatch(
        em,
        this.chain,
        tx,
        orders.map(({ order, units }) => ({ orderId: order.id, wallet: order.deliveryWallet, units })),
        outcome.reason,
      );
      this.chain.wake();
      return;
    }
    for (const { order } of orders) await this.outcomes.failLocked(em, order, outcome.reason, outcome.hash ?? undefined, CHAIN_ACTOR);
  }

  /** Each order's own `Transfer` log of the gateway's transaction, recorded: a hash settles no other order with it. */
  private async recordLogs(
    em: EntityManager,
    tx: LedgerIntent,
    outcome: Extract<LedgerOutcome, { ok: true }>,
    orders: { order: AcceptedOrder; units: bigint }[],
  ): Promise<void> {
    const free = this.chain.transfersIn(outcome.logs ?? [], tx.toAddress ?? '');
    const rows: { orderId: string; chainId: string; hash: string; logIndex: number }[] = [];
    for (const { order, units } of orders) {
      const wallet = order.deliveryWallet.toLowerCase();
      const mint = order.type === OrderType.subscription;
      const at = free.findIndex((e) => e.value === units && (mint ? e.from === NO_ADDRESS && e.to === wallet : e.from === wallet && e.to === NO_ADDRESS));
      if (at < 0) continue;
      const [log] = free.splice(at, 1);
      if (log) rows.push({ orderId: order.id, chainId: tx.chainId, hash: outcome.hash, logIndex: log.logIndex });
    }
    await recordTransfers(em, rows);
  }

  private async decide(em: EntityManager, orderId: string, tx: LedgerIntent, outcome: LedgerOutcome): Promise<void> {
    const locked = await lockOneStepOrder(em, orderId);
    if (locked.status !== 'accepted') return;
    const order = acceptedOrder(locked);
    // The custody rule ran in the transaction that queued this mint or burn (OneStepSettlement.settle);
    // the tokens moved on chain, so the register follows them.
    if (outcome.ok) {
      await this.recordLogs(em, tx, outcome, [{ order, units: unitsOf({ order, token: await settlingToken(em, order) }) }]);
      await this.outcomes.settleLocked(em, order, outcome.hash, CHAIN_ACTOR, false);
    } else await this.outcomes.failLocked(em, order, outcome.reason, outcome.hash ?? undefined, CHAIN_ACTOR);
  }
}
