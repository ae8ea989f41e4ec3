import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ServiceContext } from '../../access/service-context';
import type { Clock } from '../../common/clock';
import { badRequest, notFound } from '../../common/errors';
import { DECIMAL_COLUMN, Dec, decimalString } from '../../common/money';
import { required, requiredDecimal } from '../../common/validate';
import { appendEvent, appendEventRows } from '../../events/event-log';
import type { LedgerIntent, LedgerOutcome, TokenLedger } from '../../ledger/token-ledger';
import type { HoldingLedger } from '../holding';
import { Nav } from '../nav';
import type { ShareClassService } from '../share-class';
import { CompensationAction, CompensationStatus } from './nav-compensation.entity';
import { compensationsOfBatch, decideCompensations, insertCompensations, type CompensationRow } from './correction.queries';
import { correctionPlan, type Compensation, type CorrectionPlan } from './nav-correction-plan';
import { correctionOrderEvent } from './nav-correction-events';
import { effectOf, type NavCorrectionArgs, type NavCorrectionEffect } from './nav-correction-effect';
import { repriceOrders } from './nav-repricing';

export type { NavCorrectionArgs, NavCorrectionEffect } from './nav-correction-effect';

/** Rows per batch intent: a batchMint of this many wallets stays well under a block's gas. */
export const COMPENSATION_BATCH_ROWS = 200;

type CompensationPurpose = 'correction.batchMint' | 'correction.batchBurn';

/**
 * A NAV correction (issue 44 point 3, docs/approvals.md "Correcting a NAV"): the preview anyone of
 * ops can ask for before requesting, the request's effect, and what approval does — in the
 * approver's transaction, with a few statements however many orders: the NAV keeps its original
 * close beside the corrected one; orders priced at it and not settled are re-priced, each with a
 * history entry; orders settled at it, when the error is above the share class's tolerance, get
 * tokens minted to or burned from the investor's own wallet (batch intents, `correction.*`) or
 * cash recorded against them. Each affected order's distributor hears of it (nav-correction-events.ts).
 */
export class NavCorrections {
  constructor(
    private readonly deps: {
      clock: Clock;
      shareClasses: ShareClassService;
      ledger: HoldingLedger;
      chain: TokenLedger | null;
    },
  ) {
    deps.chain?.onOutcome('correction', (em, tx, outcome) => this.onOutcome(em, tx, outcome));
  }

  /** What correcting the NAV to `close` would do; ops only; nothing is written. */
  async preview(ctx: ServiceContext, navId: unknown, close: unknown): Promise<CorrectionPlan> {
    ctx.access.requireOps();
    const nav = await this.navOf(ctx, navId);
    return this.plan(ctx.em, nav, this.correctedClose(close, nav));
  }

  /** The request's arguments, checked as approval will run them (400 otherwise). */
  async check(ctx: ServiceContext, input: { navId?: unknown; close?: unknown; reason?: unknown }): Promise<NavCorrectionArgs> {
    const reason = required(input.reason, 'reason').trim();
    const nav = await this.navOf(ctx, input.navId);
    return { navId: nav.id, close: this.correctedClose(input.close, nav), reason };
  }

  /**
   * The effect of `args` from the world now (`lock`: the NAV and its orders locked until the
   * approver's transaction commits). A locked plan is kept for that transaction: `apply`, which runs
   * next in it, books exactly the plan compared, without computing it again.
   */
  async effect(ctx: ServiceContext, args: NavCorrectionArgs, lock: boolean): Promise<NavCorrectionEffect> {
    const nav = await this.navOf(ctx, args.navId, lock);
    const plan = await this.plan(ctx.em, nav, args.close, lock);
    if (lock) this.locked.set(ctx.em, { args, nav, plan });
    return effectOf(plan);
  }

  /** The plan compared at approval, per approver's transaction (its EntityManager). */
  private readonly locked = new WeakMap<EntityManager, { args: NavCorrectionArgs; nav: Nav; plan: CorrectionPlan }>();

  /**
   * The approved correction, in the approver's transaction (the effect checked against the world in
   * it). Answers the request's result.
   */
  async apply(ctx: ServiceContext, args: NavCorrectionArgs, request: { id: string; requestedBy: string }): Promise<Record<string, unknown>> {
    const em = ctx.em;
    const now = this.deps.clock.now();
    const compared = this.locked.get(em);
    this.locked.delete(em);
    const same = compared && compared.args.navId === args.navId && compared.args.close === args.close;
    const nav = same ? compared.nav : await this.navOf(ctx, args.navId, true);
    const plan = same ? compared.plan : await this.plan(em, nav, args.close, true);
    const before = decimalString(nav.close);
    Object.assign(nav, {
      originalClose: nav.originalClose ?? before,
      close: plan.correctedClose,
      correctedBy: request.requestedBy,
      correctedAt: now,
      correctionReason: args.reason,
      correctionRequestId: request.id,
    });
    // Drops the cached live NAV of the share class (read-cache.ts) once this commits.
    appendEvent(em, {
      type: 'nav.corrected',
      aggregateType: 'share_class',
      aggregateId: plan.shareClassId,
      occurredAt: now,
      payload: { shareClassId: plan.shareClassId, entryId: nav.entryId, close: plan.correctedClose, originalClose: nav.originalClose, requestId: request.id },
    });
    await em.flush();
    const facts = {
      requestId: request.id,
      shareClassId: plan.shareClassId,
      navEntryId: nav.entryId,
      navBefore: before,
      navAfter: plan.correctedClose,
      reason: args.reason,
    };
    await repriceOrders(em, plan, facts, now);
    const booked = plan.aboveTolerance ? await this.book(em, plan, request.id, nav.id, facts, now) : { mint: 0, burn: 0, cash: 0, intents: 0 };
    return {
      navId: nav.id,
      entryId: nav.entryId,
      originalClose: nav.originalClose,
      close: plan.correctedClose,
      errorBps: plan.errorBps,
      toleranceBps: plan.toleranceBps,
      repriced: plan.repricings.length,
      compensated: booked,
    };
  }

  /** The compensations of a correction above the tolerance: rows, batch intents and events, by a few statements per batch. */
  private async book(
    em: EntityManager,
    plan: CorrectionPlan,
    requestId: string,
    navId: string,
    facts: Record<string, unknown>,
    now: Date,
  ): Promise<{ mint: number; burn: number; cash: number; intents: number }> {
    const due = plan.compensations.filter((c) => c.action !== null);
    const batches = new Map<string, Compensation[]>();
    for (const c of due) {
      if (c.action === CompensationAction.cash) continue;
      const key = `${c.chainId}|${c.tokenAddress}|${c.action}`;
      batches.set(key, [...(batches.get(key) ?? []), c]);
    }
    const transactionOf = new Map<string, string>();
    let intents = 0;
    for (const rows of batches.values()) {
      for (let i = 0; i < rows.length; i += COMPENSATION_BATCH_ROWS) {
        const part = rows.slice(i, i + COMPENSATION_BATCH_ROWS);
        const mint = part[0].action === CompensationAction.mint;
        const purpose: CompensationPurpose = mint ? 'correction.batchMint' : 'correction.batchBurn';
        const intent = this.deps.chain!.intend(
          em,
          { chainId: part[0].chainId!, purpose },
          { op: mint ? 'batchMint' : 'batchBurn', token: part[0].tokenAddress!, rows: part.map((c) => ({ wallet: c.wallet!, units: BigInt(c.units!) })) },
        );
        // The id is the rows' key: the intent is written first.
        await em.flush();
        intents++;
        for (const c of part) transactionOf.set(c.orderId, String(intent.id));
      }
    }
    const rows = due.map((c) => ({
      request_id: requestId,
      nav_id: navId,
      order_id: c.orderId,
      investor_id: c.investorId,
      distributor_id: c.distributorId,
      share_class_id: plan.shareClassId,
      action: c.action,
      tokens: c.tokensDifference,
      units: c.units,
      cash_amount: c.cashAmount,
      currency: c.currency,
      chain_id: c.chainId,
      wallet: c.wallet,
      token_address: c.tokenAddress,
      status: c.action === CompensationAction.cash ? CompensationStatus.recorded : CompensationStatus.sending,
      transaction_id: transactionOf.get(c.orderId) ?? null,
    }));
    if (rows.length) {
      await insertCompensations(em, now, rows);
      await appendEventRows(
        em,
        due.map((c) =>
          correctionOrderEvent('order.compensated', c, now, {
            ...facts,
            action: c.action,
            tokens: c.action === CompensationAction.cash ? null : c.tokensDifference,
            cashAmount: c.cashAmount,
            currency: c.currency,
            tokensMoved: c.tokensMoved,
            tokensDue: c.tokensDue,
          }),
        ),
      );
    }
    this.deps.chain?.wake();
    const count = (a: CompensationAction) => due.filter((c) => c.action === a).length;
    return { mint: count(CompensationAction.mint), burn: count(CompensationAction.burn), cash: count(CompensationAction.cash), intents };
  }

  /**
   * A compensation batch reached its depth: its rows' tokens enter (mint) or leave (burn) the
   * register through the holding ledger, once, and the rows are `booked`; or it failed, and its
   * rows are `failed` with the reason (ops see them; nothing moved).
   */
  async onOutcome(em: EntityManager, tx: LedgerIntent, outcome: LedgerOutcome): Promise<void> {
    // Plain rows and one update for the batch: a change set per row would cost a statement per order.
    const rows = await compensationsOfBatch(em, String(tx.id), CompensationStatus.sending);
    if (!rows.length) return;
    const now = this.deps.clock.now();
    const decide = (status: CompensationStatus, failure: string | null) =>
      decideCompensations(
        em,
        rows.map((r) => r.id),
        { status, hash: outcome.hash, failure, bookedAt: status === CompensationStatus.booked ? now : null },
      );
    if (!outcome.ok) {
      await decide(CompensationStatus.failed, outcome.reason);
      return;
    }
    const move = (r: CompensationRow) => ({
      investorId: r.investorId,
      shareClassId: r.shareClassId,
      distributorId: r.distributorId,
      change: r.tokens,
      at: now,
      transferHash: outcome.hash,
      reason: `NAV correction (request ${r.requestId}) of order ${r.orderId}`,
      payload: { navCorrectionRequestId: r.requestId, orderId: r.orderId },
    });
    const mints = rows.filter((r) => r.action === CompensationAction.mint);
    await this.deps.ledger.chainMoveMany(em, mints.map(move));
    // Burns take tokens out of lots, oldest first, holding by holding (the ledger's rule).
    for (const r of rows.filter((r) => r.action === CompensationAction.burn)) await this.deps.ledger.chainMove(em, move(r));
    await decide(CompensationStatus.booked, null);
  }

  private plan(em: EntityManager, nav: Nav, close: string, lock = false): Promise<CorrectionPlan> {
    const chain = this.deps.chain;
    return correctionPlan(em, nav, nav.shareClass, close, (chainId) => !!chain?.writes(chainId), lock);
  }

  /** The confirmed NAV by id, of a share class the caller sees; 404 otherwise. */
  private async navOf(ctx: ServiceContext, navId: unknown, lock = false): Promise<Nav> {
    const id = typeof navId === 'string' || typeof navId === 'number' ? String(navId) : '';
    const nav = /^\d{1,18}$/.test(id)
      ? await ctx.em.findOne(
          Nav,
          { id },
          lock ? { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true, populate: ['shareClass'] } : { populate: ['shareClass'] },
        )
      : null;
    if (!nav) throw notFound('NAV not found');
    await this.deps.shareClasses.getVisible(ctx, nav.shareClass.id);
    return nav;
  }

  /** A positive close, other than the NAV's own (400 otherwise). */
  private correctedClose(close: unknown, nav: Nav): string {
    const value = requiredDecimal(close, 'close', DECIMAL_COLUMN);
    if (!value.greaterThan(0)) throw badRequest('close must be greater than 0');
    if (value.equals(new Dec(nav.close))) throw badRequest(`close is already the NAV's close (${decimalString(nav.close)})`);
    return decimalString(value);
  }
}

/** A compensation row as its batch's outcome reads it. */
