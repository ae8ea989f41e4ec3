import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../common/clock';
import { badRequest, conflict, notFound } from '../../common/errors';
import { Dec, decimalString } from '../../common/money';
import { toUnits } from '../../common/units';
import type { ServiceContext } from '../../access/service-context';
import { navOfDealingDate, priceDealingDate, type DealingPriced } from './dealing-pricing';
import { lockOneStepOrder, Order, OrderFlow, OrderType } from '../order';
import { ShareClass } from '../share-class';
import { Token } from '../token';
import type { DealingService } from '../dealing';
import { notInvestorsWallet, orderInvestorShown, walletCustodyMany } from '../investor';
import type { LedgerIntent, TokenLedger } from '../../ledger/token-ledger';
import { acceptedOrder, type AcceptedOrder } from './accepted-order';
import { ChainBatchOrder } from './chain-batch.entity';
import { batchCall, enqueueBatch, type BatchPurpose, type BatchRow } from './batch-intents';
import { orderCorrelation, orderOfCorrelation } from './order-correlation';
import type { OneStepOutcomes } from './one-step-outcomes';
import { orderDutyRefusals } from './order-duties';
import { batchIneligibility } from '../eligibility';

/** Gas one batch transaction may use (well under a block's 30M, so it is mined without waiting for room). */
export const BATCH_GAS_BUDGET = 12_000_000n;
/** Rows whose batch call is estimated to size the chunks. */
const SAMPLE_ROWS = 20;
/** Rows in a batch at most, whatever the estimate (its calldata and its events stay small). */
const MAX_ROWS = 250;
/** Rows in a batch when the sample could not be estimated (T-REX's batchMint costs up to ~106k a row). */
const FALLBACK_ROWS = 100;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** T-REX's refusal of a mint to a wallet whose identity is not verified (`Token.mint`). */
const UNVERIFIED = 'Identity is not verified.';

/** A row of a dealing date: an accepted order priced at the date's NAV, and what its check found. */
export interface DealingRow {
  orderId: string;
  type: OrderType;
  wallet: string;
  tokens: string;
  amount: string;
  /** Null when the row may settle; else why it fails (the contract's own words where it has them). */
  refusal: string | null;
}

export interface DealingPlan {
  shareClassId: string;
  dealingDate: string;
  nav: string;
  navPublishedAt: Date;
  chainId: string;
  tokenAddress: string;
  rows: DealingRow[];
  /** Accepted orders of the date already in a transaction (a batch or their own): not settled again. */
  inFlight: string[];
}

export interface DealingOutcome extends DealingPlan {
  /** The batch intents queued by this run (their hashes once signed: ChainTransaction). */
  transactions: LedgerIntent[];
  /** Orders failed by their check, with the reason. */
  failed: { orderId: string; reason: string }[];
}

/**
 * Settlement of a dealing date (issue 22): every accepted one-step order of a share class and
 * dealing date, priced at the NAV struck for that date (the last NAV published on that date in
 * the share class's dealing zone; a 409 while there is none), checked row by row with calls
 * (`isVerified`, `isFrozen`, and for burns the wallet's balance net of the date's other burns),
 * and with the custody rule (the row's wallet is its investor's own in the register: never the
 * shared registry's `isVerified` alone), then minted or burned with `batchMint` / `batchBurn` intents in chunks sized by their estimated
 * gas. T-REX's batch calls revert whole on one bad row, so a row failing its check is failed on
 * its own with its reason and the rest go ahead. So does a row whose order one ops principal
 * took every step of alone (segregation of duties, order-duties.ts).
 *
 * Exactly once: the run locks the date's orders, skips those already in a transaction, and
 * writes the repricing, the failures, the intents and their rows (`chain_batch_order`, one batch
 * per order) in one transaction: a crash before its commit leaves nothing, after it the sender
 * owns the intents. Each order settles once when its batch reaches the confirmation depth, with
 * its own `token.transfer_completed` naming the batch's hash (SettlementOnChain.onOutcome).
 */
export class DealingDateSettlement {
  constructor(
    private readonly chain: TokenLedger,
    private readonly dealing: DealingService,
    private readonly outcomes: OneStepOutcomes,
    private readonly clock: Clock,
  ) {}

  /** What a run would do now, written nowhere (the console's preview). */
  async preview(ctx: ServiceContext, shareClassId: unknown, dealingDate: unknown): Promise<DealingPlan> {
    ctx.access.requireOps();
    return ctx.em.transactional((em) => this.plan(em, shareClassId, dealingDate, false));
  }

  async settle(ctx: ServiceContext, shareClassId: unknown, dealingDate: unknown): Promise<DealingOutcome> {
    ctx.access.requireOps();
    // A chain that is away: a 503 before the run locks, prices or fails anything.
    const primary = typeof shareClassId === 'string' ? await ctx.em.findOne(Token, { shareClass: shareClassId, isPrimary: true }) : null;
    if (primary) await this.chain.reachable(primary.chainId);
    const outcome = await ctx.em.transactional(async (em) => {
      const plan = await this.plan(em, shareClassId, dealingDate, true);
      const failed: DealingOutcome['failed'] = [];
      for (const { orderId, refusal } of plan.rows) {
        if (refusal === null) continue;
        await this.outcomes.failLocked(em, await lockOneStepOrder(em, orderId), refusal, undefined, 'ops');
        failed.push({ orderId, reason: refusal });
      }
      const transactions: LedgerIntent[] = [];
      for (const type of [OrderType.subscription, OrderType.redemption]) {
        const rows = plan.rows.filter((r) => !r.refusal && r.type === type);
        for (const chunk of await this.chunks(plan, rows)) transactions.push(await this.enqueue(em, plan, type, chunk));
      }
      await em.flush();
      return { ...plan, transactions: transactions.map((t) => ({ ...t, id: String(t.id) })), failed };
    });
    this.chain.wake();
    return outcome;
  }

  /** Locks (when settling) and prices the date's accepted orders, and checks each row on chain. */
  private async plan(em: EntityManager, shareClassIdIn: unknown, dealingDateIn: unknown, settling: boolean): Promise<DealingPlan> {
    if (typeof shareClassIdIn !== 'string' || !shareClassIdIn) throw badRequest('shareClassId is required');
    if (typeof dealingDateIn !== 'string' || !DATE.test(dealingDateIn) || Number.isNaN(Date.parse(dealingDateIn)))
      throw badRequest('dealingDate must be a date YYYY-MM-DD');
    const shareClassId = shareClassIdIn;
    const dealingDate = dealingDateIn;
    const shareClass = await em.findOne(ShareClass, { id: shareClassId });
    if (!shareClass) throw notFound('Share class not found');
    const token = await em.findOne(Token, { shareClass: shareClassId, isPrimary: true });
    if (!token || !this.chain.writes(token.chainId)) throw conflict(`share class ${shareClassId} has no primary token on a chain the gateway writes to`);
    const nav = await navOfDealingDate(em, this.dealing, shareClass, dealingDate, this.clock.now());
    const price = new Dec(nav.close);
    if (price.isZero()) throw conflict(`the NAV of dealing date ${dealingDate} is zero; the orders cannot be priced`);
    const orders = await em.find(
      Order,
      { flow: OrderFlow.one_step, shareClass: shareClassId, dealingDate, status: 'accepted', chainId: token.chainId },
      { orderBy: { id: 'asc' }, ...(settling ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {}), refresh: settling },
    );
    const busy = await this.inTransaction(
      em,
      orders.map((o) => o.id),
    );
    const open = orders.filter((o) => !busy.has(o.id)).map(acceptedOrder);
    // Forward pricing: the order's tokens (subscription) or proceeds (redemption) at the date's NAV,
    // recorded by one statement when settling; the entities, unchanged, leave the unit of work.
    const priced = await priceDealingDate(em, open, nav, token.decimals, shareClass.currency, { writeAt: settling ? new Date() : undefined });
    em.clear();
    this.chain.requireWritable(token.chainId);
    const rows = await this.check(token, open, priced);
    // The custody rule for each row, first of its checks: a row whose wallet is not its investor's
    // own in the register fails its order with that reason, and nothing is sent for it.
    const custody = await walletCustodyMany(
      em,
      open.map((o) => ({ key: o.id, investorId: o.investor.id, chainId: o.chainId, address: o.deliveryWallet })),
    );
    const shown = new Map(open.map((o) => [o.id, orderInvestorShown(o)]));
    for (const row of rows) if (custody.get(row.orderId) !== 'own') row.refusal = notInvestorsWallet(shown.get(row.orderId)!);
    // Segregation of duties for each row (order-duties.ts): an order one ops principal alone
    // placed, accepted and now settles fails with the duty's reason, and nothing is sent for it.
    const duties = await orderDutyRefusals(
      em,
      open.map((o) => o.id),
    );
    for (const row of rows) row.refusal ??= duties.get(row.orderId) ?? null;
    // Eligibility for each subscription row (src/modules/eligibility/eligibility.ts): an investor the
    // rules or an expired KYC refuse since acceptance, or a limit the row would break, fails that
    // row with the reason, and nothing is minted for it. An expired KYC also has its claim revoked
    // on chain (src/modules/investor/kyc-claim.ts), so the identity reads unverified: the gateway's
    // reason, which says why, is given rather than the contract's.
    const byId = new Map(open.map((o) => [o.id, o]));
    const ineligible = await batchIneligibility(
      em,
      shareClassId,
      rows
        .filter((r) => r.type === OrderType.subscription && (!r.refusal || r.refusal === UNVERIFIED))
        .map((r) => ({ orderId: r.orderId, investorId: byId.get(r.orderId)!.investor.id, shownInvestorId: shown.get(r.orderId)!, tokens: r.tokens })),
      this.clock.now(),
    );
    for (const row of rows) row.refusal = ineligible.get(row.orderId) ?? row.refusal;
    return {
      shareClassId,
      dealingDate,
      nav: decimalString(price),
      navPublishedAt: nav.publishedAt,
      chainId: token.chainId,
      tokenAddress: token.contractAddress,
      rows,
      inFlight: [...busy],
    };
  }

  /** Orders already in a transaction: a batch row, or their own single-order intent (its correlation, asked of the ledger). */
  private async inTransaction(em: EntityManager, orderIds: string[]): Promise<Set<string>> {
    if (!orderIds.length) return new Set();
    const batched = await em.find(ChainBatchOrder, { orderId: { $in: orderIds } });
    const own = await this.chain.correlated(em, orderIds.map(orderCorrelation));
    return new Set([...batched.map((r) => r.orderId), ...[...own].map((c) => orderOfCorrelation(c)!)]);
  }

  /** Each row checked with calls, as the contract will check it: verified identity, not frozen, enough to burn. */
  private async check(token: Token, orders: AcceptedOrder[], priced: DealingPriced[]): Promise<DealingRow[]> {
    const wallets = [...new Set(orders.map((o) => o.deliveryWallet.toLowerCase()))];
    const facts = await this.chain.walletFacts(token.chainId, { address: token.contractAddress, registry: token.identityRegistry! }, wallets);
    const prices = new Map(priced.map((p) => [p.id, p]));
    return orders.map((o) => {
      const wallet = o.deliveryWallet.toLowerCase();
      const f = facts.get(wallet);
      const { settlementTokens, settlementAmount } = prices.get(o.id) ?? {};
      // Both maps hold every order given: the calls above read each wallet, priceDealingDate priced each order.
      if (!f || !settlementTokens || !settlementAmount) throw new Error(`order ${o.id} was not read or priced with its dealing date`);
      const units = toUnits(settlementTokens, token.decimals);
      let refusal: string | null = null;
      if (o.type === OrderType.subscription && !f.verified) refusal = UNVERIFIED;
      else if (f.frozen) refusal = `wallet ${wallet} is frozen`;
      else if (o.type === OrderType.redemption) {
        // The date's burns from one wallet come out of one balance.
        if (units > f.balance) refusal = 'cannot burn more than balance';
        else f.balance -= units;
      }
      return { orderId: o.id, type: o.type, wallet, tokens: settlementTokens, amount: settlementAmount, refusal };
    });
  }

  /**
   * Rows cut into chunks whose batch call fits the gas budget. A batch's gas grows with its rows,
   * so a sample's estimate per row sizes them (a sample, not a whole first chunk: estimating is a
   * binary search of the call, and it is the run's slowest step); a chunk the sample misjudged
   * runs out of gas and goes again in halves (batch-intents.ts).
   */
  private async chunks(plan: DealingPlan, rows: DealingRow[]): Promise<DealingRow[][]> {
    const [first] = rows;
    if (!first) return [];
    const sample = rows.slice(0, SAMPLE_ROWS);
    let size: number;
    try {
      const gas = await this.chain.estimateGas(
        plan.chainId,
        batchCall(purposeOf(first.type), plan.tokenAddress, this.batchRows(sample, await this.decimals(plan))),
      );
      size = Math.max(1, Math.min(MAX_ROWS, Number((BigInt(sample.length) * BATCH_GAS_BUDGET) / gas)));
    } catch {
      // An estimate that fails (a row the check missed): the sender's own call will name it; keep the size.
      size = FALLBACK_ROWS;
    }
    const out: DealingRow[][] = [];
    for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
    return out;
  }

  private decimalsCache = new Map<string, number>();
  private async decimals(plan: DealingPlan): Promise<number> {
    const known = this.decimalsCache.get(plan.tokenAddress);
    if (known !== undefined) return known;
    this.chain.requireWritable(plan.chainId);
    const d = await this.chain.decimals(plan.chainId, plan.tokenAddress);
    this.decimalsCache.set(plan.tokenAddress, d);
    return d;
  }

  private batchRows(rows: DealingRow[], decimals: number): BatchRow[] {
    return rows.map((r) => ({ orderId: r.orderId, wallet: r.wallet, units: toUnits(r.tokens, decimals) }));
  }

  private async enqueue(em: EntityManager, plan: DealingPlan, type: OrderType, rows: DealingRow[]): Promise<LedgerIntent> {
    return enqueueBatch(em, this.chain, {
      chainId: plan.chainId,
      tokenAddress: plan.tokenAddress,
      purpose: purposeOf(type),
      rows: this.batchRows(rows, await this.decimals(plan)),
    });
  }
}

const purposeOf = (type: OrderType): BatchPurpose => (type === OrderType.subscription ? 'settlement.batchMint' : 'settlement.batchBurn');
