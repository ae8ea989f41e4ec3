import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../common/clock';
import { Order, OrderFlow } from './order.entity';
import { statusesBefore } from './order-states';
import { pushClaimState } from './order.queries';

/** How often a racing push or cancel looks again for the outcome of the push in flight. */
export const CLAIM_POLL_MS = 20;
/** A claim outlives the provider's timeout by this margin before another pusher may take it over. */
export const CLAIM_LEASE_MARGIN_MS = 5_000;
/** The most a cancel waits for pushes in flight (the longest provider timeout, plus the margin) before a 503. */
export const CANCEL_PATIENCE_MS = 120_000 + CLAIM_LEASE_MARGIN_MS;
/** The status an order is pushed from (`created`), from the transition table. */
const PUSHABLE = statusesBefore(OrderFlow.two_step, 'submitted')[0];

/**
 * The claim protocol of the two-step push: exactly one of racing pushes and cancels of an order
 * wins, without a database transaction held across the provider's HTTP exchange (on the embedded
 * PGlite an open transaction stalls every other request; on a server it would pin a connection
 * and a row lock for seconds).
 *  1. claim: one conditional UPDATE sets `push_claim` where the order is `created` and unclaimed
 *     (or its claim's lease ran out). PostgreSQL re-checks the WHERE on the locked row, so of two
 *     racing pushers exactly one updates a row; only that one calls the provider.
 *  2. the caller calls the provider, outside any transaction.
 *  3. the caller records the acceptance in a short transaction that locks the row, checks the
 *     claim is still its own, and clears it; a rejection or no answer only `release`s the claim.
 * A push or cancel that finds a live claim waits (polling every CLAIM_POLL_MS, no transaction
 * open) for that push's outcome, then decides on the status it finds. A lease is the provider's
 * timeout plus CLAIM_LEASE_MARGIN_MS, read on the service clock; patience is counted in the time
 * spent waiting, so it runs out even on a clock that stands still.
 */
export class PushClaims {
  constructor(
    private readonly clock: Clock,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  /** The lease of a claim on an order of a provider answering within `providerTimeoutMs`. */
  leaseOf(providerTimeoutMs: number): number {
    return providerTimeoutMs + CLAIM_LEASE_MARGIN_MS;
  }

  /** A claim taken less than `leaseMs` ago: its push may still record an outcome. */
  isLive(state: Pick<PushState, 'claim' | 'claimedAt'>, leaseMs: number): boolean {
    return !!state.claim && !!state.claimedAt && state.claimedAt.getTime() > this.clock.now().getTime() - leaseMs;
  }

  /**
   * Takes the push claim of a `created` order, waiting for a push in flight to finish first (at
   * most `leaseMs`). `notCreated(status)` is thrown once the order left `created`; `tooLong()` when
   * patience ran out.
   */
  async claim(store: ClaimStore, orderId: string, leaseMs: number, errors: { notCreated: (status: string) => Error; tooLong: () => Error }): Promise<string> {
    const claim = randomUUID();
    const patience = new Patience(leaseMs);
    for (;;) {
      const now = this.clock.now();
      if (await store.take(orderId, claim, now, new Date(now.getTime() - leaseMs))) return claim;
      const state = await store.state(orderId);
      if (state.status !== PUSHABLE) throw errors.notCreated(state.status);
      await this.waitForOutcome(store, orderId, leaseMs, patience, errors.tooLong);
    }
  }

  /** Gives a claim up (the provider rejected the push, or gave no answer): the order is as it was. */
  release(store: ClaimStore, orderId: string, claim: string): Promise<void> {
    return store.release(orderId, claim);
  }

  /**
   * Waits (no transaction open) until the push in flight has recorded its outcome, its lease ran
   * out, or the order left `created`; throws `tooLong()` once `patience` is spent.
   */
  async waitForOutcome(store: ClaimStore, orderId: string, leaseMs: number, patience: Patience, tooLong: () => Error): Promise<void> {
    for (;;) {
      const state = await store.state(orderId);
      if (state.status !== PUSHABLE || !this.isLive(state, leaseMs)) return;
      if (!patience.spend(CLAIM_POLL_MS)) throw tooLong();
      await this.sleep(CLAIM_POLL_MS);
    }
  }
}

/** Time a caller is still willing to wait, spent by the polls. */
export class Patience {
  constructor(private leftMs: number) {}

  /** Spends `ms`; false when there was not that much left. */
  spend(ms: number): boolean {
    if (this.leftMs < ms) return false;
    this.leftMs -= ms;
    return true;
  }
}

export interface PushState {
  status: string;
  claim: string | null;
  claimedAt: Date | null;
}

/** Where claims are kept: the order's row (`orderClaims`); the unit test keeps them in memory. */
export interface ClaimStore {
  /** Sets `claim` if the order is `created` and unclaimed, or claimed before `staleBefore`; true when it did. */
  take(orderId: string, claim: string, now: Date, staleBefore: Date): Promise<boolean>;
  state(orderId: string): Promise<PushState>;
  /** Clears the claim if it is still `claim`. */
  release(orderId: string, claim: string): Promise<void>;
}

/** The claims on the order rows. */
export function orderClaims(em: EntityManager): ClaimStore {
  return {
    take: async (orderId, claim, now, staleBefore) =>
      (await em.nativeUpdate(
        Order,
        { id: orderId, status: PUSHABLE, $or: [{ pushClaim: null }, { pushClaimedAt: { $lt: staleBefore } }] },
        { pushClaim: claim, pushClaimedAt: now },
      )) === 1,
    state: async (orderId) => {
      const r = await pushClaimState(em, orderId);
      return { status: r.status, claim: r.push_claim, claimedAt: r.push_claimed_at ? new Date(r.push_claimed_at) : null };
    },
    release: async (orderId, claim) => {
      await em.nativeUpdate(Order, { id: orderId, pushClaim: claim }, { pushClaim: null, pushClaimedAt: null });
    },
  };
}
