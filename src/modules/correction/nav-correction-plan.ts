import { createHash } from 'node:crypto';
import Decimal from 'decimal.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Dec, decimalString } from '../../common/money';
import { toUnits } from '../../common/units';
import { walletCustodyMany } from '../investor';
import { freeHoldings, ordersAtNav, type OrderRow } from './correction.queries';
import type { Nav } from '../nav';
import { minorUnits, priceAtNav, priceRedemption, type SettlementPriced, tokensForAmount } from '../order';
import { navToleranceBps, type ShareClass } from '../share-class';
import { Token } from '../token';
import { CompensationAction } from './nav-compensation.entity';

/*
 * What correcting a NAV does, computed from the world in one pass (a few statements, however many
 * orders): the orders priced at it and not yet settled, re-priced at the corrected close; and the
 * orders settled at it, each with what the corrected close gives minus what moved. Both the
 * preview (`navCorrectionPreview`) and the `nav_correction` request's effect read this; approval
 * recomputes it in the approver's transaction, with the rows locked, and books exactly it.
 */

/** An order priced at the NAV and not settled, with its price now and at the corrected close. */
export interface Repricing {
  orderId: string;
  flow: string;
  type: string;
  status: string;
  distributorId: string;
  investorId: string;
  eventSeq: number;
  /** The order's NAV before and after. */
  navBefore: string;
  navAfter: string;
  /** Two-step: `amountTokensEstimated`; one-step: `settlementTokens` (the estimate). */
  tokensBefore: string | null;
  tokensAfter: string | null;
  /** One-step: the estimated amount (a redemption's proceeds) before and after; null for two-step. */
  amountBefore: string | null;
  amountAfter: string | null;
  /** The fields written (a one-step order's whole price at the corrected close). */
  write: Record<string, string | null>;
}

/** An order settled at the NAV: what the corrected close gives minus what moved, and what approval books for it. */
export interface Compensation {
  orderId: string;
  type: string;
  distributorId: string;
  investorId: string;
  chainId: string | null;
  wallet: string | null;
  tokenAddress: string | null;
  tokenDecimals: number | null;
  /** Tokens that moved (minted for a subscription, burned for a redemption). */
  tokensMoved: string;
  /** Tokens the corrected close gives (a redemption's are its own: only its proceeds change). */
  tokensDue: string;
  /** tokensDue − tokensMoved. */
  tokensDifference: string;
  /** What was paid or invested, and what the corrected close makes of it (a redemption's proceeds). */
  amountSettled: string | null;
  amountDue: string | null;
  currency: string;
  /** The order's own error, in bps of what is due: |difference| / due × 10,000 (2 places). */
  errorBps: string;
  /** What approval books: nothing below the tolerance or without a difference. */
  action: CompensationAction | null;
  /** Cash due to the investor (positive) or by the investor (negative), for a `cash` action. */
  cashAmount: string | null;
  /** Token units moved on chain, for `mint` and `burn`. */
  units: string | null;
}

export interface CorrectionPlan {
  nav: Pick<Nav, 'id' | 'entryId' | 'close' | 'currency' | 'publishedAt'>;
  shareClassId: string;
  correctedClose: string;
  toleranceBps: number;
  /** The NAV's error: |close − corrected| / corrected × 10,000 (2 places), as the circular measures it. */
  errorBps: string;
  aboveTolerance: boolean;
  repricings: Repricing[];
  compensations: Compensation[];
}

const str = (v: unknown): string | null => (v === null || v === undefined ? null : decimalString(v as Decimal.Value));

/**
 * The plan of correcting `nav` to `correctedClose`. `lock`: in the approver's transaction, the
 * orders read are locked until it commits, so what is booked is what was compared.
 */
export async function correctionPlan(
  em: EntityManager,
  nav: Pick<Nav, 'id' | 'entryId' | 'close' | 'currency' | 'publishedAt'>,
  sc: ShareClass,
  correctedClose: string,
  writes: (chainId: string) => boolean,
  lock = false,
): Promise<CorrectionPlan> {
  const corrected = new Dec(correctedClose);
  const tokens = await em.find(Token, { shareClass: sc.id }, { orderBy: { isPrimary: 'desc', id: 'asc' } });
  const primary = tokens[0] ?? null;
  const tokenOn = (chainId: string | null) => (chainId ? (tokens.find((t) => t.chainId === chainId) ?? null) : primary);
  const orders = await ordersAtNav(em, sc.id, nav.publishedAt, lock);
  const toleranceBps = navToleranceBps(sc);
  const errorBps = bpsOf(new Dec(nav.close).minus(corrected), corrected);
  const aboveTolerance = new Dec(errorBps).greaterThan(toleranceBps);

  const repricings: Repricing[] = [];
  const settled: OrderRow[] = [];
  for (const o of orders) {
    if (o.status === 'settled') settled.push(o);
    else repricings.push(repricing(o, corrected, tokenOn(o.chain_id)?.decimals ?? primary?.decimals ?? 18, sc.currency));
  }
  const compensations = await compensationsOf(em, settled, { corrected, aboveTolerance, currency: sc.currency, shareClassId: sc.id, tokenOn, writes });
  return { nav, shareClassId: sc.id, correctedClose: decimalString(corrected), toleranceBps, errorBps, aboveTolerance, repricings, compensations };
}

/** |difference| / base in bps, to 2 places; 0 when both are 0. */
function bpsOf(difference: Decimal.Value, base: Decimal.Value): string {
  const b = new Dec(base);
  if (b.isZero()) return new Dec(difference).isZero() ? '0' : '10000';
  return decimalString(new Dec(difference).abs().div(b).mul(10_000).toDecimalPlaces(2));
}

function repricing(o: OrderRow, corrected: Decimal, decimals: number, currency: string): Repricing {
  const base = {
    orderId: o.id,
    flow: o.flow,
    type: o.type,
    status: o.status,
    distributorId: o.distributor_id,
    investorId: o.investor_id,
    eventSeq: o.event_seq,
    navBefore: str(o.nav)!,
    navAfter: decimalString(corrected),
  };
  if (o.flow === 'two_step') {
    const after = o.amount !== null && corrected.greaterThan(0) ? tokensForAmount(o.amount, corrected, decimals) : null;
    return {
      ...base,
      tokensBefore: str(o.amount_tokens_estimated),
      tokensAfter: after,
      amountBefore: null,
      amountAfter: null,
      write: { nav: base.navAfter, amountTokensEstimated: after },
    };
  }
  const copy: SettlementPriced = { type: o.type, amount: o.amount, tokenCount: o.token_count, currency: o.currency, feesRedBps: o.fees_red_bps };
  priceAtNav(copy, { close: base.navAfter, publishedAt: new Date(0) }, decimals, currency);
  return {
    ...base,
    tokensBefore: str(o.settlement_tokens),
    tokensAfter: copy.settlementTokens!,
    amountBefore: str(o.settlement_amount),
    amountAfter: copy.settlementAmount!,
    write: {
      nav: copy.nav!,
      settlementNav: copy.settlementNav!,
      settlementTokens: copy.settlementTokens!,
      settlementAmount: copy.settlementAmount!,
      amountFeesTotal: copy.amountFeesTotal ?? null,
    },
  };
}

async function compensationsOf(
  em: EntityManager,
  settled: OrderRow[],
  c: {
    corrected: Decimal;
    aboveTolerance: boolean;
    currency: string;
    shareClassId: string;
    tokenOn: (chainId: string | null) => Token | null;
    writes: (chainId: string) => boolean;
  },
): Promise<Compensation[]> {
  if (!settled.length) return [];
  // The custody rule on every delivery wallet at once, and what each investor holds free of open redemptions.
  const custody = await walletCustodyMany(
    em,
    settled
      .filter((o) => o.chain_id && o.delivery_wallet)
      .map((o) => ({ key: o.id, investorId: o.investor_id, chainId: o.chain_id!, address: o.delivery_wallet! })),
  );
  const investors = [...new Set(settled.map((o) => o.investor_id))];
  const held = await freeHoldings(em, c.shareClassId, investors);
  const free = new Map(held.map((h) => [h.investor_id, new Dec(h.free)]));
  return settled.map((o) => {
    const currency = o.currency ?? c.currency;
    const token = c.tokenOn(o.chain_id);
    const decimals = token?.decimals ?? 18;
    const base = {
      orderId: o.id,
      type: o.type,
      distributorId: o.distributor_id,
      investorId: o.investor_id,
      chainId: o.chain_id,
      wallet: o.delivery_wallet?.toLowerCase() ?? null,
      tokenAddress: token?.contractAddress.toLowerCase() ?? null,
      tokenDecimals: token?.decimals ?? null,
      currency,
      units: null,
      cashAmount: null,
    };
    if (o.type === 'redemption') {
      // The tokens burned were the order's own; the corrected close changes only the proceeds: cash.
      const tokens = str(o.token_count)!;
      const due = priceRedemption(tokens, c.corrected, o.fees_red_bps ?? 0, currency).proceeds;
      const difference = new Dec(due).minus(o.settlement_amount ?? 0);
      return {
        ...base,
        tokensMoved: tokens,
        tokensDue: tokens,
        tokensDifference: '0',
        amountSettled: str(o.settlement_amount),
        amountDue: due,
        errorBps: bpsOf(difference, due),
        action: c.aboveTolerance && !difference.isZero() ? CompensationAction.cash : null,
        cashAmount: c.aboveTolerance && !difference.isZero() ? decimalString(difference) : null,
      };
    }
    const moved = new Dec(o.settlement_tokens ?? 0);
    const due = c.corrected.greaterThan(0) ? tokensForAmount(o.amount!, c.corrected, decimals) : decimalString(moved);
    const difference = new Dec(due).minus(moved);
    const row: Compensation = {
      ...base,
      tokensMoved: decimalString(moved),
      tokensDue: due,
      tokensDifference: decimalString(difference),
      amountSettled: str(o.settlement_amount),
      amountDue: str(o.amount),
      errorBps: bpsOf(difference, due),
      action: null,
    };
    if (!c.aboveTolerance || difference.isZero()) return row;
    const onChain = !!token && !!o.chain_id && !!row.wallet && custody.get(o.id) === 'own' && c.writes(o.chain_id);
    const investorFree = free.get(o.investor_id) ?? new Dec(0);
    const burnable = difference.isNegative() && investorFree.greaterThanOrEqualTo(difference.abs());
    if (onChain && (difference.isPositive() || burnable)) {
      if (difference.isNegative()) free.set(o.investor_id, investorFree.plus(difference));
      return {
        ...row,
        action: difference.isPositive() ? CompensationAction.mint : CompensationAction.burn,
        units: String(toUnits(decimalString(difference.abs()), decimals)),
      };
    }
    // No token can move: the tokens' value at the corrected close, in the currency's minor unit.
    const cash = difference.mul(c.corrected).toDecimalPlaces(minorUnits(currency), Decimal.ROUND_DOWN);
    return { ...row, action: CompensationAction.cash, cashAmount: decimalString(cash) };
  });
}

/** A digest of what a plan books and re-prices: the request binds it, approval compares it. */
export function planDigest(rows: object[]): string {
  return createHash('sha256').update(JSON.stringify(rows)).digest('hex');
}

/** The facts of a repricing and a compensation that the digest covers. */
export const repricingFacts = (r: Repricing) => [r.orderId, r.status, r.navBefore, r.navAfter, r.tokensAfter, r.amountAfter];
export const compensationFacts = (c: Compensation) => [c.orderId, c.tokensMoved, c.tokensDue, c.action, c.cashAmount, c.units, c.wallet];
