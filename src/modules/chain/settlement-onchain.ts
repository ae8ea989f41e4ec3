import type { EntityManager } from '@mikro-orm/postgresql';
import { decodeEventLog, encodeFunctionData, parseUnits, zeroAddress, type Hex } from 'viem';
import { badRequest, conflict } from '../../common/errors';
import { Order, OrderType } from '../order/order.entity';
import type { OnChainSettlement } from '../order/one-step.service';
import { Token } from '../token/token.entity';
import type { ChainTransaction } from './chain-transaction.entity';
import { splitBatch } from './batch-intents';
import { ChainBatchOrder } from './chain-batch.entity';
import type { ChainService } from './chain.service';
import { TOKEN_ABI } from './contracts';
import type { TxOutcome } from './outcomes';
import { recordTransfers } from '../order/settlement-transfers';
import { chainAway, isChainUnreachable } from './chain.errors';

/** The one-step flow's settle and fail of a locked order (src/modules/order/one-step.service.ts). */
export interface SettlementOutcomes {
  lockOrder(em: EntityManager, orderId: string): Promise<Order>;
  lockOrders(em: EntityManager, orderIds: string[]): Promise<Order[]>;
  settleLocked(em: EntityManager, order: Order, hash: string, as: 'chain', checkWallet?: boolean): Promise<Order>;
  settleManyLocked(em: EntityManager, orders: Order[], hash: string, as: 'chain'): Promise<void>;
  failLocked(em: EntityManager, order: Order, reason: string, hash: string | undefined, as: 'chain' | 'ops'): Promise<Order>;
}

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
export class SettlementOnChain implements OnChainSettlement {
  constructor(
    private readonly chain: ChainService,
    private readonly orders: () => SettlementOutcomes,
  ) {}

  private async token(em: EntityManager, order: Order): Promise<Token> {
    const token = await em.findOne(Token, { shareClass: order.shareClass.id, chainId: order.chainId! }, { orderBy: { isPrimary: 'desc' } });
    if (!token) throw badRequest(`share class ${order.shareClass.id} has no token on chain ${order.chainId}`);
    return token;
  }

  /** The token units of the order's tokens (decimal string) in the token's decimals. */
  private units(order: Order, token: Token): bigint {
    return parseUnits(order.settlementTokens!, token.decimals);
  }

  async ready(chainId: string): Promise<void> {
    if (this.chain.writes(chainId)) await this.chain.reachable(chainId);
  }

  async start(em: EntityManager, order: Order): Promise<void> {
    if (!this.chain.writes(order.chainId!)) throw badRequest('transferHash is required');
    if (await em.findOne(ChainBatchOrder, { orderId: order.id })) throw conflict(`order ${order.id} is being settled with its dealing date's batch`);
    const token = await this.token(em, order);
    const mint = order.type === OrderType.subscription;
    const args = [order.deliveryWallet as Hex, this.units(order, token)] as const;
    this.chain.enqueue(em, {
      chainId: order.chainId!,
      purpose: mint ? 'settlement.mint' : 'settlement.burn',
      orderId: order.id,
      to: token.contractAddress,
      data: encodeFunctionData({ abi: TOKEN_ABI, functionName: mint ? 'mint' : 'burn', args }),
    });
  }

  /**
   * A hash given by ops: when the chain is readable, the transaction must have succeeded and
   * carry a `Transfer` of this token from 0x0 to the wallet (subscription) or from the wallet to
   * 0x0 (redemption) of exactly the order's tokens.
   */
  async verifyHash(em: EntityManager, order: Order, hash: string): Promise<number[] | null> {
    const chain = this.chain.chains.get(order.chainId!);
    if (!chain) return null;
    const token = await this.token(em, order);
    const mint = order.type === OrderType.subscription;
    const wallet = order.deliveryWallet!.toLowerCase();
    return this.checkTransfer(order.chainId!, token, hash, mint ? [zeroAddress, wallet] : [wallet, zeroAddress], this.units(order, token));
  }

  /**
   * A settlement the supply-side platform reports for a two-step order (src/modules/order/two-step.service.ts):
   * on a chain the gateway reads, the transaction must have succeeded and carry a `Transfer` of
   * the share class's token to the order's delivery wallet (subscription) or from it
   * (redemption); else a 400 saying what did not match. Unreadable chain: nothing to check.
   */
  async verifySupplyTransfer(em: EntityManager, order: Order, hash: string): Promise<number[] | null> {
    if (!order.chainId || !this.chain.chains.get(order.chainId) || !order.deliveryWallet) return null;
    const token = await this.token(em, order);
    const wallet = order.deliveryWallet.toLowerCase();
    return this.checkTransfer(order.chainId, token, hash, order.type === OrderType.subscription ? [null, wallet] : [wallet, null]);
  }

  /**
   * The receipt of `hash` shows a successful `Transfer` of `token` from/to (null: any) of `amount`
   * units (if given): the log indexes of the matching transfers; else a 400 naming the mismatch.
   * A node that does not answer is a 503 (unreachable), not a transaction missing.
   */
  private async checkTransfer(chainId: string, token: Token, hash: string, [from, to]: [string | null, string | null], amount?: bigint): Promise<number[]> {
    const chain = this.chain.chains.get(chainId)!;
    const receipt = await chain.client.getTransactionReceipt({ hash: hash as Hex }).catch((err) => {
      if (isChainUnreachable(err)) throw chainAway(chainId);
      return null;
    });
    if (!receipt) throw badRequest(`transaction ${hash} is not on chain ${chainId}`);
    if (receipt.status !== 'success') throw badRequest(`transaction ${hash} reverted`);
    const transfers = transfersOf(receipt.logs, token.contractAddress);
    if (!transfers.length) throw badRequest(`transaction ${hash} has no Transfer of token ${token.contractAddress}`);
    const ours = transfers.filter((e) => (from === null || e.from === from) && (to === null || e.to === to));
    if (!ours.length) throw badRequest(`transaction ${hash} has no Transfer of token ${token.contractAddress} ${from ? `from ${from} ` : ''}${to ? `to ${to}` : ''}`.trimEnd());
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
  async onOutcome(em: EntityManager, tx: ChainTransaction, outcome: TxOutcome): Promise<void> {
    if (tx.orderId) return this.decide(em, tx, outcome);
    const rows = await em.find(ChainBatchOrder, { transactionId: tx.id }, { orderBy: { orderId: 'asc' } });
    const outcomes = this.orders();
    // Only orders still accepted: one decided otherwise meanwhile is left as it is.
    const orders = (await outcomes.lockOrders(em, rows.map((r) => r.orderId))).filter((o) => o.status === 'accepted');
    if (outcome.ok) {
      const units = new Map(rows.map((r) => [r.orderId, BigInt(r.units)]));
      await this.recordLogs(em, tx, outcome, orders.map((o) => ({ order: o, units: units.get(o.id)! })));
      return outcomes.settleManyLocked(em, orders, outcome.hash, CHAIN_ACTOR);
    }
    if (orders.length > 1) {
      const units = new Map(rows.map((r) => [r.orderId, BigInt(r.units)]));
      await splitBatch(em, this.chain, tx, orders.map((o) => ({ orderId: o.id, wallet: o.deliveryWallet!, units: units.get(o.id)! })), outcome.reason);
      this.chain.wake();
      return;
    }
    for (const order of orders) await outcomes.failLocked(em, order, outcome.reason, outcome.hash ?? undefined, CHAIN_ACTOR);
  }

  /** Each order's own `Transfer` log of the gateway's transaction, recorded: a hash settles no other order with it. */
  private async recordLogs(em: EntityManager, tx: ChainTransaction, outcome: Extract<TxOutcome, { ok: true }>, orders: { order: Order; units: bigint }[]): Promise<void> {
    const free = transfersOf(outcome.logs ?? [], tx.toAddress ?? '');
    const rows: { orderId: string; chainId: string; hash: string; logIndex: number }[] = [];
    for (const { order, units } of orders) {
      const wallet = order.deliveryWallet!.toLowerCase();
      const mint = order.type === OrderType.subscription;
      const at = free.findIndex((e) => e.value === units && (mint ? e.from === zeroAddress && e.to === wallet : e.from === wallet && e.to === zeroAddress));
      if (at < 0) continue;
      rows.push({ orderId: order.id, chainId: tx.chainId, hash: outcome.hash, logIndex: free[at]!.logIndex });
      free.splice(at, 1);
    }
    await recordTransfers(em, rows);
  }

  private async decide(em: EntityManager, tx: ChainTransaction, outcome: TxOutcome): Promise<void> {
    const orders = this.orders();
    const order = await orders.lockOrder(em, tx.orderId!);
    if (order.status !== 'accepted') return;
    // The custody rule ran in the transaction that queued this mint or burn (OneStepOrderService.settle);
    // the tokens moved on chain, so the register follows them.
    if (outcome.ok) {
      await this.recordLogs(em, tx, outcome, [{ order, units: this.units(order, await this.token(em, order)) }]);
      await orders.settleLocked(em, order, outcome.hash, CHAIN_ACTOR, false);
    }
    else await orders.failLocked(em, order, outcome.reason, outcome.hash ?? undefined, CHAIN_ACTOR);
  }
}

/** The `Transfer` events of `token` among a receipt's logs, addresses lower-cased. */
function transfersOf(logs: readonly { address: string; logIndex: number | null; topics: readonly Hex[]; data: Hex }[], token: string): { logIndex: number; from: string; to: string; value: bigint }[] {
  const out: { logIndex: number; from: string; to: string; value: bigint }[] = [];
  for (const l of logs) {
    if (l.address.toLowerCase() !== token.toLowerCase() || l.logIndex === null) continue;
    try {
      const e = decodeEventLog({ abi: TOKEN_ABI, data: l.data, topics: l.topics as [Hex, ...Hex[]] }) as unknown as { eventName: string; args: { from: string; to: string; value: bigint } };
      if (e.eventName === 'Transfer') out.push({ logIndex: l.logIndex, from: e.args.from.toLowerCase(), to: e.args.to.toLowerCase(), value: e.args.value });
    } catch {
      // not an event of the token's ABI
    }
  }
  return out;
}
