import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../common/clock';
import { badRequest } from '../../common/errors';
import { optional, required } from '../../common/validate';
import { appendEvent } from '../../events/event-log';
import { assertMove, SUPPLY_OUTCOMES, type OrderStatus } from './order-states';
import { recordTransition } from './order-transition';
import { Order, OrderFlow } from './order.entity';
import { orderNotFound } from './order.errors';
import { cannotRecordOutcome } from './two-step.errors';
import { DeliveryMode } from '../distributor';
import { orderInvestorShown, requireOwnWallet } from '../investor';
import { claimTransfer } from './settlement-transfers';

export interface SupplyOutcomeInput {
  orderId?: unknown;
  outcome?: unknown;
  orderReference?: unknown;
  note?: unknown;
  reason?: unknown;
  transferHash?: unknown;
}

/** What the two-step flow asks of the chain module when a settlement is reported (src/modules/settlement/settlement-onchain.ts). */
export interface SupplyTransferCheck {
  /** The log indexes of the matching Transfer events; null where the chain is not read. */
  verifySupplyTransfer(em: EntityManager, order: Order, hash: string): Promise<number[] | null>;
}

/**
 * What the supply-side platform says of a two-step order after its push (accepted, rejected,
 * settled, failed), by ops or by the provider's signed callback, reflected into its history once:
 * a repeated delivery changes nothing. A settlement with a transfer hash on a chain the gateway
 * reads is checked there first.
 */
export class SupplyOutcomes {
  constructor(private readonly deps: { clock: Clock; transfers?: SupplyTransferCheck | null }) {}

  async apply(em: EntityManager, providerId: string | null, input: SupplyOutcomeInput): Promise<Order> {
    const orderId = required(input.orderId, 'orderId');
    const outcome = input.outcome;
    if (typeof outcome !== 'string' || outcome === '') throw badRequest(providerId ? 'status is required' : 'outcome is required');
    if (!SUPPLY_OUTCOMES.includes(outcome)) throw badRequest(`${providerId ? 'status' : 'outcome'} must be one of ${SUPPLY_OUTCOMES.join(', ')}`);
    const name = outcome as OrderStatus;
    const note = optional(input.note, 'note');
    const reason = optional(input.reason, 'reason');
    const transferHash = optional(input.transferHash, 'transferHash');
    const orderReference = optional(input.orderReference, 'orderReference');
    // The custody rule before anything is read on chain (and again under the order's lock below).
    if (name === 'settled') await this.requireOwnDelivery(em.fork(), orderId);
    const logIndexes = name === 'settled' && transferHash ? await this.verifyTransfer(em, providerId, orderId, transferHash) : null;

    await em.transactional(async (tem) => {
      const order = await tem.findOne(Order, { id: orderId, flow: OrderFlow.two_step }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (!order) throw orderNotFound();
      if (providerId !== null) {
        const ref = (order.supplyRefs?.[providerId] as { orderReference?: string } | undefined)?.orderReference;
        if (!ref || (orderReference !== undefined && orderReference !== ref)) throw orderNotFound();
      }
      // A repeated delivery of an outcome already recorded changes nothing (providers retry).
      const history = await order.history.loadItems();
      if (history.some((e) => e.status === name)) return;
      assertMove(order, name, providerId ? 'provider' : 'ops', (status) => cannotRecordOutcome(name, status));
      // Ops recording a refusal say why, as for a one-step rejection; the platform's own callback may not know.
      if (providerId === null && (name === 'rejected' || name === 'failed')) required(reason, 'reason');
      if (name === 'settled') {
        await this.requireOwnDelivery(tem, order.id);
        // One transfer settles one order (a 409 naming the order it settled).
        if (transferHash) await claimTransfer(tem, order.id, { chainId: order.chainId ?? '', hash: transferHash, logIndexes });
      }
      if (reason && (name === 'rejected' || name === 'failed')) order.failureReason = reason;
      if (transferHash) order.transferHash = transferHash;
      await recordTransition(tem, order, {
        status: name,
        as: providerId ? 'provider' : 'ops',
        now: this.deps.clock.now(),
        note: note ?? reason,
        details: { source: providerId ? `provider:${providerId}` : 'ops', reason: reason ?? null, transferHash: transferHash ?? null },
      });
      await tem.flush();
    });
    return em.findOneOrFail(Order, { id: orderId }, { refresh: true });
  }

  /** The custody rule: a two-step order's tokens settle only on the investor's own wallet (or the distributor's, `hold`). */
  private async requireOwnDelivery(em: EntityManager, orderId: string): Promise<void> {
    const order = await em.findOne(Order, { id: orderId, flow: OrderFlow.two_step });
    if (!order?.deliveryWallet || !order.chainId) return;
    const holdFor = order.deliveryMode === DeliveryMode.hold ? order.distributor.id : null;
    await requireOwnWallet(em, { investorId: order.investor.id, chainId: order.chainId, address: order.deliveryWallet, holdFor }, orderInvestorShown(order));
  }

  /**
   * A settlement reported with a transfer hash on a chain the gateway reads must show that
   * transfer (a successful transaction with a `Transfer` of the share class's token to the
   * investor's delivery wallet). A mismatch is kept out of the order's history: the caller gets
   * the 400 saying what did not match, and ops see a `supply.transfer_mismatch` event.
   */
  private async verifyTransfer(em: EntityManager, providerId: string | null, orderId: string, hash: string): Promise<number[] | null> {
    const check = this.deps.transfers;
    if (!check) return null;
    const order = await em.fork().findOne(Order, { id: orderId, flow: OrderFlow.two_step });
    if (!order || order.status !== 'accepted') return null; // not found, or not settling: the transition's own answer follows
    try {
      return await check.verifySupplyTransfer(em.fork(), order, hash);
    } catch (err) {
      const fork = em.fork();
      appendEvent(fork, {
        type: 'supply.transfer_mismatch',
        aggregateType: 'order',
        aggregateId: order.id,
        distributorId: null,
        occurredAt: this.deps.clock.now(),
        payload: { orderId: order.id, providerId, transferHash: hash, reason: (err as Error).message },
      });
      await fork.flush();
      throw err;
    }
  }
}
