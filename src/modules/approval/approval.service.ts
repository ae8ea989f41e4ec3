import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Access } from '../../access/access';
import { principalLabel, type OpsRole } from '../../access/principal';
import type { Clock } from '../../common/clock';
import { runInScope } from '../../common/request-scope';
import type { ServiceContext } from '../../access/service-context';
import { chainId, evmAddress, required, requiredDecimal } from '../../common/validate';
import { DECIMAL_COLUMN, decimalString } from '../../common/money';
import { badRequest, conflict, DomainError, forbidden, notFound } from '../../common/errors';
import { appendEvent } from '../../events/event-log';
import type { HoldingAdjustmentInput, HoldingService } from '../holding';
import {
  boundEffect,
  EFFECT_VERSION,
  navConfirmationEffect,
  refuseChangedEffect,
  type ApprovalEffect,
  type OpsPrincipalArgs,
  type OpsRolesArgs,
  type OpsTokenResetArgs,
} from './approval-effect';
import { holdingAdjustmentEffect, type HoldingAdjustmentArgs } from './holding-adjustment-effect';
import { type InvestorService, type InvestorWalletService, refuseTakenAddress, type WalletFreezes, type WalletUnfreezeEffect } from '../investor';
import { ApprovalKind, ApprovalRequest, ApprovalStatus } from './approval-request.entity';
import { WALLET_RECOVERY_EVENTS, type WalletRecoveryEvent } from './wallet-recovery-events';
import type { NavService, PendingNavArgs } from '../nav';
import type { ForcedTransferArgs, ForcedTransferInput, ForcedTransfers } from './forced-transfer';
import type { NavCorrectionArgs, NavCorrections } from '../correction';
import { type EligibilityRules, eligibilityRulesEffect, investorCategoryEffect } from '../eligibility';

export interface ApprovalDeps {
  clock: Clock;
  investors: InvestorService;
  wallets: InvestorWalletService;
  holdings: HoldingService;
  forcedTransfers: ForcedTransfers;
  navs: NavService;
  navCorrections: NavCorrections;
  /** Wallet freezes (src/modules/investor/wallet-freeze.ts): their unfreeze is a request here. */
  freezes: WalletFreezes;
  /** RECOVERY_DELAY_SECONDS: an approved recovery runs this long after approval (0: at approval). */
  recoveryDelaySeconds: number;
}

/**
 * A request kind another module runs (the ops principals' kinds: ops-principal-requests.ts): the
 * role that decides it, and the call its approval runs in the approver's transaction (setting the
 * request's `result`, and `tokenPart` when it hands out a part of a token).
 */
export interface ApprovalRunner {
  decidedBy: OpsRole;
  run(ctx: ServiceContext, request: ApprovalRequest): Promise<void>;
}

export interface WalletRecoveryArgs {
  investorId?: string | null;
  chainId?: string | null;
  newAddress?: string | null;
  reason?: string | null;
}

/**
 * Four eyes on what moves positions outside an order (wallet recovery, holding adjustment, forced
 * transfer — forced-transfer.ts) and on a NAV outside its tolerance (nav-confirmations.ts): one
 * principal requests, a different one with the `approver` role approves or rejects, and the
 * approved call — the same service call as ever (InvestorWalletService.recover,
 * HoldingService.adjust) — runs once, in the approver's transaction:
 * - at approval, when nothing makes it wait (a holding adjustment; a recovery when
 *   RECOVERY_DELAY_SECONDS is 0): the approval and the call commit together or not at all, so a
 *   call that fails answers its error and leaves the request `requested`;
 * - later, for a recovery with a delay: `runDue` (the approval worker) takes each due request
 *   under a row lock (`skip locked`: one runner at a time) and moves it to `executed` in the
 *   transaction of the call, or to `failed` with the reason; a crash before the commit leaves it
 *   `approved` and due, so it runs exactly once.
 * The investor's distributor hears of a recovery by webhook (wallet-recovery-events.ts).
 */
export class ApprovalService {
  private readonly runners = new Map<ApprovalKind, ApprovalRunner>();

  constructor(private readonly deps: ApprovalDeps) {}

  /** Adds a kind another module runs (once per kind). */
  register(kind: ApprovalKind, runner: ApprovalRunner): void {
    if (this.runners.has(kind)) throw new Error(`approval kind ${kind} is registered twice`);
    this.runners.set(kind, runner);
  }

  async requestWalletRecovery(ctx: ServiceContext, input: WalletRecoveryArgs): Promise<ApprovalRequest> {
    ctx.access.requireRole('operator');
    const investor = await this.deps.investors.get(ctx, input.investorId);
    // Checked as the recovery will check them, so a request that cannot run is refused now.
    const args = {
      investorId: investor.id,
      chainId: chainId(input.chainId),
      newAddress: evmAddress(input.newAddress, 'newAddress'),
      reason: required(input.reason, 'reason').trim(),
    };
    // The custody rule at request time too: nobody is asked to approve a move to another holder's wallet.
    await refuseTakenAddress(ctx.em, investor.id, args.newAddress, 'newAddress');
    const request = await this.submit(ctx, ApprovalKind.wallet_recovery, args, args.reason, investor.id);
    this.announce(ctx.em, request, 'wallet.recovery_requested', investor.distributor.id);
    await ctx.em.flush();
    return request;
  }

  async requestHoldingAdjustment(ctx: ServiceContext, input: HoldingAdjustmentInput): Promise<ApprovalRequest> {
    ctx.access.requireRole('operator');
    const investor = await this.deps.investors.get(ctx, input.investorId);
    // The quantity is checked as the adjustment will check it, so a request that cannot run is refused now.
    const quantity = requiredDecimal(input.quantity, 'quantity', DECIMAL_COLUMN);
    if (quantity.isZero()) throw badRequest('quantity must not be 0');
    const args: HoldingAdjustmentArgs = {
      investorId: investor.id,
      shareClassId: required(input.shareClassId, 'shareClassId'),
      quantity: decimalString(quantity),
      reason: required(input.reason, 'reason').trim(),
      settledAt: input.settledAt ? input.settledAt.getTime() : null,
    };
    const request = await this.submit(ctx, ApprovalKind.holding_adjustment, { ...args }, args.reason, investor.id);
    await ctx.em.flush();
    return request;
  }

  async requestForcedTransfer(ctx: ServiceContext, input: Partial<ForcedTransferInput>): Promise<ApprovalRequest> {
    ctx.access.requireRole('operator');
    const from = await this.deps.investors.get(ctx, input.fromInvestorId);
    const to = await this.deps.investors.get(ctx, input.toInvestorId);
    const args = this.deps.forcedTransfers.check({ ...input, fromInvestorId: from.id, toInvestorId: to.id });
    return this.submit(ctx, ApprovalKind.forced_transfer, { ...args }, args.reason, from.id);
  }

  /** A freeze's lift (src/modules/investor/wallet-freeze.ts), with a reason (required): freezing is one operator's, unfreezing two principals'. */
  async requestWalletUnfreeze(ctx: ServiceContext, input: { freezeId?: unknown; reason?: unknown }): Promise<ApprovalRequest> {
    ctx.access.requireRole('operator');
    const reason = required(input.reason, 'reason').trim();
    const freeze = await this.deps.freezes.get(ctx.em, input.freezeId);
    const request = await this.submit(ctx, ApprovalKind.wallet_unfreeze, { freezeId: freeze.id, reason }, reason, freeze.investorId);
    await ctx.em.flush();
    return request;
  }

  /**
   * A confirmed NAV's correction (src/modules/correction/nav-correction.ts): the NAV, a positive
   * close other than its own and a reason (400 otherwise), bound with what it will re-price and book.
   */
  async requestNavCorrection(ctx: ServiceContext, input: { navId?: unknown; close?: unknown; reason?: unknown }): Promise<ApprovalRequest> {
    ctx.access.requireRole('operator');
    const args = await this.deps.navCorrections.check(ctx, input);
    const request = await this.submit(ctx, ApprovalKind.nav_correction, { ...args }, args.reason);
    await ctx.em.flush();
    return request;
  }

  /**
   * The one function per kind that computes what a request does from the world now: at request time
   * it is bound (`effect`); at approval, and in the worker for a delayed recovery, it runs again with
   * `lock` (the rows it read locked until the approver's transaction commits) and must give the same.
   */
  private readonly effectNow: {
    [K in ApprovalKind]: (ctx: ServiceContext, args: object, lock: boolean) => Promise<Extract<ApprovalEffect, { kind: `${K}` }>>;
  } = {
    // The stored arguments are those the request wrote, of its kind's shape.
    [ApprovalKind.wallet_recovery]: (ctx, args, lock) => this.deps.wallets.recoveryEffect(ctx, args, lock),
    [ApprovalKind.forced_transfer]: (ctx, args, lock) => this.deps.forcedTransfers.effect(ctx.em, args as ForcedTransferArgs, lock),
    [ApprovalKind.holding_adjustment]: (ctx, args, lock) => holdingAdjustmentEffect(ctx.em, args as HoldingAdjustmentArgs, lock),
    [ApprovalKind.wallet_unfreeze]: (ctx, args, lock) => this.deps.freezes.unfreezeEffect(ctx.em, args as { freezeId: string }, lock),
    // The NAV and the move it was held for, as struck; whether that move still holds is
    // NavService.confirmPending's check (the previous confirmed NAV unchanged) in the approver's transaction.
    [ApprovalKind.nav_confirmation]: (_ctx, args) => Promise.resolve(navConfirmationEffect(args as PendingNavArgs)),
    // What the correction re-prices and books, row by row (as digests), with the NAV and its orders locked at approval.
    [ApprovalKind.nav_correction]: (ctx, args, lock) => this.deps.navCorrections.effect(ctx, args as NavCorrectionArgs, lock),
    // Who an ops principal is and may do: the request's own words (ops-principal-requests.ts); the
    // runner checks the principal still is what was asked about.
    [ApprovalKind.ops_principal]: (_ctx, args) => Promise.resolve({ ...(args as OpsPrincipalArgs), kind: 'ops_principal', version: EFFECT_VERSION }),
    [ApprovalKind.ops_roles]: (_ctx, args) => Promise.resolve({ ...(args as OpsRolesArgs), kind: 'ops_roles', version: EFFECT_VERSION }),
    [ApprovalKind.ops_token_reset]: (_ctx, args) => Promise.resolve({ ...(args as OpsTokenResetArgs), kind: 'ops_token_reset', version: EFFECT_VERSION }),
    // The rules as asked, and the holders they would leave ineligible now: approval refuses a different list.
    [ApprovalKind.eligibility_rules]: async (ctx, args) => ({
      ...(await eligibilityRulesEffect(ctx.em, args as EligibilityRules)),
      kind: 'eligibility_rules',
      version: EFFECT_VERSION,
    }),
    [ApprovalKind.investor_category]: async (ctx, args, lock) => ({
      ...(await investorCategoryEffect(ctx.em, args as { investorId: string; to: string }, lock)),
      kind: 'investor_category',
      version: EFFECT_VERSION,
    }),
  };

  /**
   * The request's bound effect, once the world has been recomputed and found to give exactly it:
   * else `CONFLICT` naming each change. A refusal of the recomputation itself (the receiver has no
   * whitelisted wallet any more, the lost wallet was removed) is the world having changed too: a
   * `CONFLICT` with its reason, never the approver's bad input.
   */
  private async checkedEffect(ctx: ServiceContext, request: ApprovalRequest): Promise<ApprovalEffect> {
    const bound = boundEffect(request);
    const now = await this.effectNow[request.kind](ctx, request.arguments, true).catch((err: unknown) => {
      if (err instanceof DomainError && (err.code === 'BAD_REQUEST' || err.code === 'NOT_FOUND'))
        throw conflict(`approval request ${request.id} no longer does what was requested: ${err.message}`);
      throw err;
    });
    refuseChangedEffect(String(request.id), bound, now);
    return bound;
  }

  /** Approves a request of another principal; runs it now unless its delay makes it wait. */
  async approve(ctx: ServiceContext, id: unknown, reason: string | null | undefined): Promise<ApprovalRequest> {
    return ctx.em.transactional(async (em) => {
      const request = await this.decidable({ ...ctx, em }, id);
      const effect = await this.checkedEffect({ ...ctx, em }, request);
      const now = this.deps.clock.now();
      const delay = request.kind === ApprovalKind.wallet_recovery ? this.deps.recoveryDelaySeconds : 0;
      Object.assign(request, {
        status: ApprovalStatus.approved,
        decidedBy: principalLabel(ctx.access.principal),
        decidedByPrincipalId: ctx.access.opsPrincipalId!,
        decidedAt: now,
        decisionReason: reason?.trim() || undefined,
        executeAfter: new Date(now.getTime() + delay * 1000),
      });
      await em.flush();
      this.changed(em, request);
      if (request.kind === ApprovalKind.wallet_recovery) this.announce(em, request, 'wallet.recovery_approved', await this.distributorOf(em, request));
      if (delay === 0) await this.execute({ ...ctx, em }, request, effect);
      await em.flush();
      return request;
    });
  }

  async reject(ctx: ServiceContext, id: unknown, reason: string | null | undefined): Promise<ApprovalRequest> {
    const why = required(reason, 'reason').trim();
    return ctx.em.transactional(async (em) => {
      const request = await this.decidable({ ...ctx, em }, id);
      Object.assign(request, {
        status: ApprovalStatus.rejected,
        decidedBy: principalLabel(ctx.access.principal),
        decidedByPrincipalId: ctx.access.opsPrincipalId!,
        decidedAt: this.deps.clock.now(),
        decisionReason: why,
      });
      this.changed(em, request);
      if (request.kind === ApprovalKind.wallet_recovery) this.announce(em, request, 'wallet.recovery_rejected', await this.distributorOf(em, request));
      await em.flush();
      return request;
    });
  }

  /** Requests in `status` (all when none), newest first: what the console's inbox lists. */
  async list(ctx: ServiceContext, status: ApprovalStatus | null | undefined): Promise<ApprovalRequest[]> {
    ctx.access.requireOps();
    return ctx.em.find(ApprovalRequest, status ? { status } : {}, { orderBy: { id: 'desc' }, limit: 200 });
  }

  async get(ctx: ServiceContext, id: unknown): Promise<ApprovalRequest> {
    ctx.access.requireOps();
    const found = /^\d{1,18}$/.test(typeof id === 'string' || typeof id === 'number' ? String(id) : '')
      ? await ctx.em.findOne(ApprovalRequest, { id: String(id) })
      : null;
    if (!found) throw notFound('approval request not found');
    return found;
  }

  /**
   * Runs every approved request whose delay has passed, each in its own transaction as the
   * principal that approved it. Returns how many ran (executed or failed).
   */
  async runDue(em: EntityManager): Promise<number> {
    let ran = 0;
    for (;;) {
      const done = await em.fork().transactional(async (tem) => {
        const [due] = await tem.find(
          ApprovalRequest,
          { status: ApprovalStatus.approved, executeAfter: { $lte: this.deps.clock.now() } },
          { orderBy: { executeAfter: 'asc' }, limit: 1, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE },
        );
        if (!due) return false;
        const approver = (due.decidedBy ?? '').replace(/^ops:/, '');
        await runInScope({ actor: approver, principal: due.decidedBy }, async () => {
          const ctx = { em: tem, access: Access.ops(approver, ['approver'], due.decidedByPrincipalId ?? null) };
          try {
            // The world is checked again when it runs: the delay is time for it to change.
            await tem.transactional(async (sem) => this.execute({ ...ctx, em: sem }, due, await this.checkedEffect({ ...ctx, em: sem }, due)));
          } catch (err) {
            due.status = ApprovalStatus.failed;
            due.failure = err instanceof Error ? err.message : String(err);
            due.executedAt = this.deps.clock.now();
            this.changed(tem, due);
          }
          await tem.flush();
        });
        return true;
      });
      if (!done) return ran;
      ran++;
    }
  }

  /**
   * Stores a request of the caller, an ops principal (a person: the gateway's own work, which has
   * no principal id, asks for nothing), binding the effect its kind computes from the world now.
   */
  async submit(ctx: ServiceContext, kind: ApprovalKind, args: Record<string, unknown>, reason: string, investorId?: string): Promise<ApprovalRequest> {
    const effect = await this.effectNow[kind](ctx, args, false);
    return openRequest(ctx, this.deps.clock, kind, args, reason, effect, investorId);
  }

  /**
   * The request, locked, still `requested` (else 409), decided by the role its kind needs, and
   * not the caller's own (403): principals are compared by id, never by name or label.
   */
  private async decidable(ctx: ServiceContext, id: unknown): Promise<ApprovalRequest> {
    ctx.access.requireRole('approver');
    await this.get(ctx, id);
    const request = await ctx.em.findOneOrFail(ApprovalRequest, { id: String(id) }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    ctx.access.requireRole(this.runners.get(request.kind)?.decidedBy ?? 'approver');
    if (request.status !== ApprovalStatus.requested) throw conflict(`approval request ${request.id} is already ${request.status}`);
    const decider = ctx.access.opsPrincipalId;
    if (!decider || !request.requestedByPrincipalId || request.requestedByPrincipalId === decider) {
      throw forbidden('a principal may not approve or reject its own request');
    }
    return request;
  }

  /**
   * The approved call, in `ctx`'s transaction, built from the bound effect (checked against the world
   * in this transaction): nothing is looked up again. The request becomes `executed` with what it answered.
   */
  private async execute(ctx: ServiceContext, request: ApprovalRequest, effect: ApprovalEffect): Promise<void> {
    const runner = this.runners.get(request.kind);
    if (runner) {
      await runner.run(ctx, request);
    } else if (effect.kind === 'wallet_recovery') {
      const wallet = await this.deps.wallets.recover(ctx, effect, request.reason);
      request.result = { walletId: String(wallet.id), address: wallet.address, chainId: wallet.chainId, status: wallet.status };
      this.announce(ctx.em, request, 'wallet.recovered', await this.distributorOf(ctx.em, request));
    } else if (effect.kind === 'nav_confirmation') {
      const nav = await this.deps.navs.confirmPending(ctx, effect, request.requestedBy, String(request.id));
      request.result = { shareClassId: nav.shareClass.id, entryId: nav.entryId, close: nav.close, publishedAt: nav.publishedAt.getTime() };
    } else if (effect.kind === 'nav_correction') {
      request.result = await this.deps.navCorrections.apply(ctx, request.arguments as unknown as NavCorrectionArgs, {
        id: String(request.id),
        requestedBy: request.requestedBy,
      });
    } else if (effect.kind === 'forced_transfer') {
      const transfer = await this.deps.forcedTransfers.start(ctx.em, String(request.id), effect);
      request.result = {
        forcedTransferId: String(transfer.id),
        transactionId: transfer.transactionId,
        fromWallet: transfer.fromWallet,
        toWallet: transfer.toWallet,
        status: transfer.status,
      };
    } else if (effect.kind === 'wallet_unfreeze') {
      request.result = await this.unfreeze(ctx, String(request.id), effect);
    } else if (effect.kind === 'holding_adjustment') {
      const { investorId, shareClassId, quantity, settledAt } = effect;
      const view = await this.deps.holdings.adjust(ctx, {
        investorId,
        shareClassId,
        quantity,
        reason: request.reason,
        settledAt: settledAt === null ? null : new Date(settledAt),
      });
      request.result = JSON.parse(JSON.stringify(view)) as Record<string, unknown>;
    } else {
      throw new Error(`approval kind ${request.kind} has no runner`);
    }
    request.status = ApprovalStatus.executed;
    request.executedAt = this.deps.clock.now();
    this.changed(ctx.em, request);
    await ctx.em.flush();
  }

  private async unfreeze(ctx: ServiceContext, requestId: string, effect: WalletUnfreezeEffect): Promise<Record<string, unknown>> {
    const freeze = await this.deps.freezes.lift(ctx.em, requestId, effect);
    return { freezeId: freeze.id, transactionId: freeze.unfreezeTransactionId, wallet: freeze.walletAddress, status: freeze.status };
  }

  private async distributorOf(em: EntityManager, request: ApprovalRequest): Promise<string> {
    const investor = await this.deps.investors.get({ em, access: Access.ops('approval') }, request.investorId);
    return investor.distributor.id;
  }

  /** A recovery's step, for the investor's distributor's webhooks of that type (and nobody else's). */
  private announce(em: EntityManager, request: ApprovalRequest, type: WalletRecoveryEvent, distributorId: string): void {
    if (!WALLET_RECOVERY_EVENTS.includes(type)) throw new Error(`unknown wallet recovery event ${type}`);
    const a = request.arguments;
    appendEvent(em, {
      type,
      aggregateType: 'approval_request',
      aggregateId: String(request.id),
      distributorId,
      occurredAt: this.deps.clock.now(),
      payload: {
        webhookEvent: type,
        requestId: String(request.id),
        investorId: request.investorId,
        chainId: a.chainId,
        newAddress: a.newAddress,
        reason: request.reason,
        status: request.status,
        executeAfter: request.executeAfter?.getTime() ?? null,
      },
    });
  }

  private changed(em: EntityManager, request: ApprovalRequest): void {
    approvalChanged(em, this.deps.clock, request);
  }
}

/** A new request by the caller, `requested`, binding `effect`, in ctx's unit of work (flushed), announced to the inbox. */
export async function openRequest(
  ctx: ServiceContext,
  clock: Clock,
  kind: ApprovalKind,
  args: Record<string, unknown>,
  reason: string,
  effect: ApprovalEffect,
  investorId?: string,
): Promise<ApprovalRequest> {
  const requester = ctx.access.opsPrincipalId;
  if (!requester) throw forbidden('only an ops principal makes a four-eyes request');
  const request = ctx.em.create(ApprovalRequest, {
    kind,
    arguments: args,
    effect,
    reason,
    investorId,
    requestedBy: principalLabel(ctx.access.principal)!,
    requestedByPrincipalId: requester,
    requestedAt: clock.now(),
    status: ApprovalStatus.requested,
  });
  await ctx.em.flush();
  approvalChanged(ctx.em, clock, request);
  await ctx.em.flush();
  return request;
}

/** For the approvals inbox to follow live (approvalChanged); no distributor hears it, no webhook is sent. */
function approvalChanged(em: EntityManager, clock: Clock, request: ApprovalRequest): void {
  appendEvent(em, {
    type: 'approval.changed',
    aggregateType: 'approval_request',
    aggregateId: String(request.id),
    distributorId: null,
    occurredAt: clock.now(),
    payload: { requestId: String(request.id), kind: request.kind, status: request.status },
  });
}
