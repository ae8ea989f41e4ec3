import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../common/clock';
import { badRequest } from '../../common/errors';
import { Dec, decimalString } from '../../common/money';
import { currentPrincipal } from '../../common/request-scope';
import type { ServiceContext } from '../../access/service-context';
import { requireDuty } from '../../access/duties';
import type { DealingService } from '../dealing';
import type { HoldingLedger } from '../holding';
import { navOfDealingDate } from '../settlement';
import { ShareClass } from '../share-class';
import { Token } from '../token';
import { declaredEvents, paidEvent } from './distribution-events';
import type { DistributionOnChain, MintOutcomes } from './distribution-onchain';
import { DistributionPolicy, IncomePayment, IncomeTreatment } from './distribution-policy.entity';
import { Distribution, DistributionEntitlement, DistributionStatus, EntitlementStatus } from './distribution.entity';
import * as E from './distribution.errors';
import { payOut } from './entitlement-rule';
import { payableWallets } from './distribution.queries';
import { countInTotals, totalsOf } from './payment-totals';
import { planDistribution, type DeclareInput, type DistributionPlan } from './distribution-plan';

/** Why a holder's tokens could not be minted at all: no wallet of theirs is whitelisted on the token's chain. */
export const noPayableWallet = (investorId: string, chainId: string) => `investor ${investorId} has no whitelisted wallet on chain ${chainId}`;

/** Decimals of register-only reinvestment (no token): the register's own scale. */
const REGISTER_DECIMALS = 18;

/**
 * Income (issue 31 item 1; docs/income.md): a share class's policy, distributions declared by
 * ops with each holder's entitlement computed from the register's daily closing balances, and
 * their payment — cash recorded, or reinvested as new tokens minted at the pay date's NAV with
 * batchMint intents (distribution-onchain.ts), exactly once.
 */
export class DistributionService implements MintOutcomes {
  constructor(private readonly deps: { clock: Clock; dealing: DealingService; ledger: HoldingLedger; onChain: DistributionOnChain | null }) {
    deps.onChain?.register(this);
  }

  get onChain(): DistributionOnChain | null {
    return this.deps.onChain;
  }

  async policyOf(ctx: ServiceContext, shareClassId: string): Promise<DistributionPolicy> {
    const found = await ctx.em.findOne(DistributionPolicy, { shareClassId });
    if (found) return found;
    return Object.assign(new DistributionPolicy(), {
      shareClassId,
      treatment: IncomeTreatment.accumulating,
      payment: null,
      updatedAt: new Date(0),
      updatedBy: 'default',
    });
  }

  async setPolicy(
    ctx: ServiceContext,
    shareClassId: string,
    treatment: IncomeTreatment,
    payment: IncomePayment | null | undefined,
  ): Promise<DistributionPolicy> {
    ctx.access.requireOps();
    if (treatment === IncomeTreatment.distributing && !payment) throw badRequest('a distributing share class pays by reinvest or cash: payment is required');
    if (treatment === IncomeTreatment.accumulating && payment) throw badRequest('an accumulating share class pays nothing: leave payment out');
    return ctx.em.transactional(async (em) => {
      if (!(await em.findOne(ShareClass, { id: shareClassId }))) throw E.shareClassNotFound();
      const policy =
        (await em.findOne(DistributionPolicy, { shareClassId })) ??
        em.create(DistributionPolicy, { shareClassId, treatment, updatedAt: this.deps.clock.now(), updatedBy: currentPrincipal() });
      Object.assign(policy, { treatment, payment: payment ?? null, updatedAt: this.deps.clock.now(), updatedBy: currentPrincipal() });
      await em.flush();
      return policy;
    });
  }

  async preview(ctx: ServiceContext, input: DeclareInput): Promise<DistributionPlan> {
    ctx.access.requireOps();
    return planDistribution(this.deps, ctx.em, input);
  }

  /** Declares a distribution: its entitlements frozen, one `distribution.declared` per distributor concerned. */
  async declare(ctx: ServiceContext, input: DeclareInput): Promise<Distribution> {
    ctx.access.requireOps();
    return ctx.em.transactional(async (em) => {
      const plan = await planDistribution(this.deps, em, input);
      const now = this.deps.clock.now();
      const d = em.create(Distribution, {
        shareClassId: plan.shareClassId,
        periodFrom: plan.periodFrom,
        periodTo: plan.periodTo,
        payDate: plan.payDate,
        ratePerTokenPerDay: plan.perDay ? plan.rate : null,
        amountPerToken: plan.perDay ? null : plan.rate,
        payment: plan.payment,
        currency: plan.currency,
        timeZone: plan.timeZone,
        status: DistributionStatus.declared,
        gross: plan.gross,
        declaredAt: now,
        declaredBy: currentPrincipal(),
      });
      await em.flush();
      const perDistributor = new Map<string, number>();
      for (const h of plan.holders) {
        em.create(DistributionEntitlement, {
          distributionId: d.id,
          investorId: h.investorId,
          distributorId: h.distributorId,
          tokenDays: h.tokenDays,
          gross: h.gross,
          status: EntitlementStatus.pending,
        });
        perDistributor.set(h.distributorId, (perDistributor.get(h.distributorId) ?? 0) + 1);
      }
      declaredEvents(em, d, perDistributor, now);
      await em.flush();
      return d;
    });
  }

  /**
   * Pays a declared distribution, once: the distribution's row lock, then every pending
   * entitlement paid (cash), reinvested on the register (a class without a token) or queued in
   * batchMint intents (on chain), and the distribution `paying` / `paid`, all in one transaction.
   * A second run finds it no longer `declared` and does nothing. Reinvestment mints without an
   * order: the principal that declared it cannot pay it alone (403, nothing paid or queued).
   */
  async pay(ctx: ServiceContext, id: string): Promise<Distribution> {
    ctx.access.requireOps();
    const token = await this.mintingToken(ctx, id);
    const paid = await ctx.em.transactional(async (em) => {
      const d = await em.findOneOrFail(Distribution, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (d.status !== DistributionStatus.declared) return d;
      const rows = await em.find(DistributionEntitlement, { distributionId: d.id, status: EntitlementStatus.pending }, { orderBy: { investorId: 'asc' } });
      const now = this.deps.clock.now();
      if (d.payment === IncomePayment.cash) return this.payCash(em, d, rows, now);
      // New tokens without an order: the declarer and the payer are two parties (src/access/duties.ts).
      requireDuty('incomeReinvestment', [d.declaredBy, currentPrincipal()]);
      const shareClass = await em.findOneOrFail(ShareClass, { id: d.shareClassId });
      const nav = await navOfDealingDate(em, this.deps.dealing, shareClass, d.payDate, now);
      if (new Dec(nav.close).isZero()) throw badRequest(`the NAV of ${d.payDate} is zero: nothing can be reinvested at it`);
      d.nav = decimalString(nav.close);
      for (const r of rows) Object.assign(r, payOut(r.gross, { cash: false, nav: nav.close, decimals: token?.decimals ?? REGISTER_DECIMALS }));
      totalsOf(d, rows);
      if (!token) return this.reinvestOnRegister(em, d, rows, now);
      const wallets = await payableWallets(
        em,
        token.chainId,
        rows.map((r) => r.investorId),
      );
      const minting: DistributionEntitlement[] = [];
      for (const r of rows) {
        if (new Dec(r.tokens!).isZero()) Object.assign(r, { status: EntitlementStatus.paid, paidAt: now });
        else if (!wallets.get(r.investorId)) {
          Object.assign(r, { status: EntitlementStatus.failed, failureReason: noPayableWallet(r.investorId, token.chainId) });
          countInTotals(d, r, -1);
        } else minting.push(Object.assign(r, { status: EntitlementStatus.sending, wallet: wallets.get(r.investorId)! }));
      }
      d.status = minting.length ? DistributionStatus.paying : DistributionStatus.paid;
      if (!minting.length) d.paidAt = now;
      await em.flush();
      await this.deps.onChain!.enqueue(em, token, minting);
      return d;
    });
    if (token) this.deps.onChain!.wake();
    return paid;
  }

  /**
   * Sends a reinvest distribution's failed rows again once ops fixed their cause (a wallet
   * whitelisted again): each to the investor's payable wallet now, in new batchMint intents, its
   * tokens as priced at payment; the distribution is `paying` until they are final. A row still
   * without a wallet stays failed. Idempotent: the rows sent are `sending`, not `failed`, so a
   * second call finds nothing to send.
   */
  async retryFailed(ctx: ServiceContext, id: string): Promise<Distribution> {
    ctx.access.requireOps();
    const token = await this.mintingToken(ctx, id);
    const retried = await ctx.em.transactional(async (em) => {
      const d = await em.findOneOrFail(Distribution, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (d.status === DistributionStatus.declared) throw E.notPaidYet(d.id);
      if (d.payment !== IncomePayment.cash) requireDuty('incomeReinvestment', [d.declaredBy, currentPrincipal()]);
      const rows = await em.find(DistributionEntitlement, { distributionId: d.id, status: EntitlementStatus.failed }, { orderBy: { investorId: 'asc' } });
      // Only a mint on chain fails (cash and the register are paid in the paying transaction).
      if (!rows.length || !token) return d;
      const wallets = await payableWallets(
        em,
        token.chainId,
        rows.map((r) => r.investorId),
      );
      const again = rows.filter((r) => wallets.has(r.investorId));
      for (const r of rows) if (!wallets.has(r.investorId)) r.failureReason = noPayableWallet(r.investorId, token.chainId);
      for (const r of again) {
        Object.assign(r, { status: EntitlementStatus.sending, wallet: wallets.get(r.investorId)!, failureReason: null, transferHash: null });
        countInTotals(d, r, 1);
      }
      if (again.length) Object.assign(d, { status: DistributionStatus.paying, paidAt: null });
      await em.flush();
      await this.deps.onChain!.enqueue(em, token, again);
      return d;
    });
    if (token) this.deps.onChain!.wake();
    return retried;
  }

  /** A reinvest distribution's token, if it has one, on a chain the gateway writes to and reaches now (409 / 503 otherwise). */
  private async mintingToken(ctx: ServiceContext, id: string): Promise<Token | null> {
    const pre = await ctx.em.fork().findOne(Distribution, { id });
    if (!pre) throw E.distributionNotFound();
    const token = pre.payment === IncomePayment.reinvest ? await ctx.em.fork().findOne(Token, { shareClass: pre.shareClassId, isPrimary: true }) : null;
    if (token) {
      if (!this.deps.onChain?.writes(token.chainId)) throw E.noChainForToken(pre.shareClassId, token.chainId);
      await this.deps.onChain.reachable(token.chainId);
    }
    return token;
  }

  private async payCash(em: EntityManager, d: Distribution, rows: DistributionEntitlement[], now: Date): Promise<Distribution> {
    for (const r of rows) Object.assign(r, payOut(r.gross, { cash: true }), { status: EntitlementStatus.paid, paidAt: now });
    totalsOf(d, rows);
    Object.assign(d, { status: DistributionStatus.paid, paidAt: now });
    for (const r of rows) paidEvent(em, d, r, now);
    await em.flush();
    return d;
  }

  /** A class without a token: the new tokens are booked on the register only, through the ledger. */
  private async reinvestOnRegister(em: EntityManager, d: Distribution, rows: DistributionEntitlement[], now: Date): Promise<Distribution> {
    for (const r of rows) {
      if (!new Dec(r.tokens!).isZero()) {
        await this.deps.ledger.adjust(em, {
          investorId: r.investorId,
          shareClassId: d.shareClassId,
          distributorId: r.distributorId,
          quantity: r.tokens!,
          reason: `distribution ${d.id} reinvested`,
          at: now,
          settledAt: now,
        });
      }
      Object.assign(r, { status: EntitlementStatus.paid, paidAt: now });
      paidEvent(em, d, r, now);
    }
    Object.assign(d, { status: DistributionStatus.paid, paidAt: now });
    await em.flush();
    return d;
  }

  /** A batchMint reached its depth: each row's tokens enter the register (the ledger), once. */
  async minted(em: EntityManager, transactionId: string, hash: string): Promise<void> {
    const rows = await em.find(
      DistributionEntitlement,
      { transactionId, status: EntitlementStatus.sending },
      { orderBy: { investorId: 'asc' }, lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!rows.length) return;
    const d = await em.findOneOrFail(Distribution, { id: rows[0].distributionId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const now = this.deps.clock.now();
    // One set-based write for the batch's rows: a move per row would flush per row (issue 31's 10,000 holders).
    await this.deps.ledger.chainMoveMany(
      em,
      rows.map((r) => ({
        investorId: r.investorId,
        shareClassId: d.shareClassId,
        distributorId: r.distributorId,
        change: r.tokens!,
        at: now,
        transferHash: hash,
        reason: `distribution ${d.id} reinvested`,
        payload: { distributionId: String(d.id) },
      })),
    );
    for (const r of rows) {
      Object.assign(r, { status: EntitlementStatus.paid, transferHash: hash, paidAt: now });
      paidEvent(em, d, r, now);
    }
    await em.flush();
    await this.finishIfDone(em, d, now);
  }

  async reverted(em: EntityManager, transactionId: string, reason: string, hash: string | null): Promise<void> {
    const rows = await em.find(
      DistributionEntitlement,
      { transactionId, status: EntitlementStatus.sending },
      { orderBy: { investorId: 'asc' }, lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!rows.length) return;
    const d = await em.findOneOrFail(Distribution, { id: rows[0].distributionId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (rows.length > 1) {
      const token = await em.findOneOrFail(Token, { shareClass: d.shareClassId, isPrimary: true });
      return this.deps.onChain!.split(em, token, rows);
    }
    const now = this.deps.clock.now();
    Object.assign(rows[0], { status: EntitlementStatus.failed, failureReason: reason, transferHash: hash });
    countInTotals(d, rows[0], -1);
    await em.flush();
    await this.finishIfDone(em, d, now);
  }

  private async finishIfDone(em: EntityManager, d: Distribution, now: Date): Promise<void> {
    const open = await em.count(DistributionEntitlement, { distributionId: d.id, status: { $in: [EntitlementStatus.pending, EntitlementStatus.sending] } });
    if (open) return;
    Object.assign(d, { status: DistributionStatus.paid, paidAt: now });
    await em.flush();
  }
}
