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
  async verifyHash(em: EntityManager, order: Order, hash: string): Promise<void> {
    const chain = this.chain.chains.get(order.chainId!);
    if (!chain) return;
    const token = await this.token(em, order);
    const mint = order.type === OrderType.subscription;
    const wallet = order.deliveryWallet!.toLowerCase();
    await this.checkTransfer(order.chainId!, token, hash, mint ? [zeroAddress, wallet] : [wallet, zeroAddress], this.units(order, token));
  }

  /**
   * A settlement the supply-side platform reports for a two-step order (src/modules/order/two-step.service.ts):
   * on a chain the gateway reads, the transaction must have succeeded and carry a `Transfer` of
   * the share class's token to the order's delivery wallet (subscription) or from it
   * (redemption); else a 400 saying what did not match. Unreadable chain: nothing to check.
   */
  async verifySupplyTransfer(em: EntityManager, order: Order, hash: string): Promise<void> {
    if (!order.chainId || !this.chain.chains.get(order.chainId) || !order.deliveryWallet) return;
    const token = await this.token(em, order);
    const wallet = order.deliveryWallet.toLowerCase();
    await this.checkTransfer(order.chainId, token, hash, order.type === OrderType.subscription ? [null, wallet] : [wallet, null]);
  }

  /** The receipt of `hash` shows a successful `Transfer` of `token` from/to (null: any) of `amount` units (if given); else a 400 naming the mismatch. */
  private async checkTransfer(chainId: string, token: Token, hash: string, [from, to]: [string | null, string | null], amount?: bigint): Promise<void> {
    const chain = this.chain.chains.get(chainId)!;
    const receipt = await chain.client.getTransactionReceipt({ hash: hash as Hex }).catch(() => null);
    if (!receipt) throw badRequest(`transaction ${hash} is not on chain ${chainId}`);
    if (receipt.status !== 'success') throw badRequest(`transaction ${hash} reverted`);
    const transfers = receipt.logs
      .filter((l) => l.address.toLowerCase() === token.contractAddress.toLowerCase())
      .map((l) => {
        try {
          return decodeEventLog({ abi: TOKEN_ABI, data: l.data, topics: l.topics }) as unknown as { eventName: string; args: { from: string; to: string; value: bigint } };
        } catch {
          return null;
        }
      })
      .filter((e) => e?.eventName === 'Transfer');
    if (!transfers.length) throw badRequest(`transaction ${hash} has no Transfer of token ${token.contractAddress}`);
    const ours = transfers.filter((e) => (from === null || e!.args.from.toLowerCase() === from) && (to === null || e!.args.to.toLowerCase() === to));
    if (!ours.length) throw badRequest(`transaction ${hash} has no Transfer of token ${token.contractAddress} ${from ? `from ${from} ` : ''}${to ? `to ${to}` : ''}`.trimEnd());
    if (amount !== undefined && !ours.some((e) => e!.args.value === amount)) throw badRequest(`transaction ${hash} transfers ${ours.map((e) => e!.args.value).join(', ')} units, the order's tokens are ${amount} units`);
  }

  /**
   * The order settles or fails, once, with the intent that reached its depth. A batch's orders
   * (dealing-settlement.ts) settle together, each with its own event naming the batch's hash, in
   * a few statements for the whole batch; a batch that failed goes again in halves
   * (batch-intents.ts) until the row that made it fail is alone, and only that order fails.
   */
  async onOutcome(em: EntityManager, tx: ChainTransaction, outcome: TxOutcome): Promise<void> {
    if (tx.orderId) return this.decide(em, tx.orderId, outcome);
    const rows = await em.find(ChainBatchOrder, { transactionId: tx.id }, { orderBy: { orderId: 'asc' } });
    const outcomes = this.orders();
    // Only orders still accepted: one decided otherwise meanwhile is left as it is.
    const orders = (await outcomes.lockOrders(em, rows.map((r) => r.orderId))).filter((o) => o.status === 'accepted');
    if (outcome.ok) return outcomes.settleManyLocked(em, orders, outcome.hash, CHAIN_ACTOR);
    if (orders.length > 1) {
      const units = new Map(rows.map((r) => [r.orderId, BigInt(r.units)]));
      await splitBatch(em, this.chain, tx, orders.map((o) => ({ orderId: o.id, wallet: o.deliveryWallet!, units: units.get(o.id)! })), outcome.reason);
      this.chain.wake();
      return;
    }
    for (const order of orders) await outcomes.failLocked(em, order, outcome.reason, outcome.hash ?? undefined, CHAIN_ACTOR);
  }

  private async decide(em: EntityManager, orderId: string, outcome: TxOutcome): Promise<void> {
    const orders = this.orders();
    const order = await orders.lockOrder(em, orderId);
    if (order.status !== 'accepted') return;
    // The chain decided: the contract itself checked the wallet (isVerified), so no second check here.
    if (outcome.ok) await orders.settleLocked(em, order, outcome.hash, CHAIN_ACTOR, false);
    else await orders.failLocked(em, order, outcome.reason, outcome.hash ?? undefined, CHAIN_ACTOR);
  }
}
