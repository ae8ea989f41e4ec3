import type { EntityManager } from '@mikro-orm/postgresql';
import { notFound } from '../../common/errors';
import { Dec, decimalString } from '../../common/money';
import { type DealingService, type LockUp, unlockedBalance } from '../dealing';
import { holdingKey, type OpenLot, openLotsOf } from '../holding';
import type { NavService } from '../nav';
import { heldFreezes } from '../investor';
import { ShareClass } from '../share-class';
import { holdersOf, holdingsOfInvestor } from './register.queries';

export interface Position {
  investorId: string;
  /** The investor's name, or its e-mail where it registered without one (surface R), else null. */
  investorName: string | null;
  distributorId: string;
  distributorName: string;
  tokens: string;
  /** tokens × the live NAV's close, in the share class's currency; null without a live NAV. */
  value: string | null;
  /** The holder's part of the class's tokens, in percent to 4 places. */
  sharePercent: string;
  /** The part still in lock-up now. */
  locked: string;
  /** An operator froze the holder's wallet on the class (src/modules/investor/wallet-freeze.ts). */
  frozen: boolean;
}

export interface Positions {
  shareClassId: string;
  currency: string;
  at: Date;
  navClose: string | null;
  navPublishedAt: Date | null;
  totalTokens: string;
  totalValue: string | null;
  holders: Position[];
}

/** An investor's holding of one share class now, valued as the class's positions are. */
export interface InvestorPosition {
  shareClassId: string;
  shareClassName: string;
  currency: string;
  tokens: string;
  value: string | null;
  navClose: string | null;
  locked: string;
  frozen: boolean;
}

/** A holding's figures now: its tokens, their value at the live NAV and the part still in lock-up. */
function holdingFigures(balance: Dec, lots: readonly OpenLot[], lockUp: LockUp | null, nav: { close: string } | null, at: Date) {
  const unlocked = lockUp ? unlockedBalance(balance, lots, lockUp, at).unlocked : balance;
  return {
    tokens: decimalString(balance),
    value: nav ? decimalString(balance.mul(nav.close)) : null,
    locked: decimalString(balance.minus(unlocked)),
  };
}

/**
 * The current register of a share class: every holder with tokens now,
 * from the holding ledger's balances, valued at the live NAV (the one pricing uses), with its part of
 * the class and its tokens still in lock-up (its open lots, by the lock-up rule redemptions meet).
 * Largest holding first. The register at a past day's close is register-at-date.ts.
 */
export class PositionsReader {
  constructor(private readonly deps: { dealing: Pick<DealingService, 'lockUpOf'>; navs: Pick<NavService, 'latest'>; clock: { now(): Date } }) {}

  async read(em: EntityManager, shareClassId: string): Promise<Positions> {
    const shareClass = await em.findOne(ShareClass, { id: shareClassId });
    if (!shareClass) throw notFound('Share class not found');
    const at = this.deps.clock.now();
    const nav = await this.deps.navs.latest({ em }, shareClassId, at);
    const rows = await holdersOf(em, shareClassId);
    const lockUp = await this.deps.dealing.lockUpOf(em, shareClass);
    const lots = lockUp
      ? await openLotsOf(
          em,
          rows.map((r) => ({ investorId: r.investor_id, shareClassId })),
        )
      : new Map<string, OpenLot[]>();
    const total = rows.reduce((s, r) => s.plus(r.balance), new Dec(0));
    const frozen = new Set((await heldFreezes(em, { shareClassId })).map((f) => f.investorId));
    return {
      shareClassId,
      currency: shareClass.currency,
      at,
      navClose: nav ? decimalString(nav.close) : null,
      navPublishedAt: nav?.publishedAt ?? null,
      totalTokens: decimalString(total),
      totalValue: holdingFigures(total, [], null, nav, at).value,
      holders: rows.map((r) => {
        const balance = new Dec(r.balance);
        return {
          investorId: r.investor_id,
          investorName: r.investor_name,
          distributorId: r.distributor_id,
          distributorName: r.distributor_name,
          ...holdingFigures(balance, lots.get(holdingKey(r.investor_id, shareClassId)) ?? [], lockUp, nav, at),
          sharePercent: decimalString(balance.div(total).mul(100).toDecimalPlaces(4)),
          frozen: frozen.has(r.investor_id),
        };
      }),
    };
  }

  /** An investor's positions now: each share class it holds tokens of, valued at that class's live NAV. */
  async ofInvestor(em: EntityManager, investorId: string): Promise<InvestorPosition[]> {
    const at = this.deps.clock.now();
    const rows = await holdingsOfInvestor(em, investorId);
    const frozen = new Set((await heldFreezes(em, { investorId })).map((f) => f.shareClassId));
    const out: InvestorPosition[] = [];
    for (const r of rows) {
      const shareClass = await em.findOneOrFail(ShareClass, { id: r.share_class_id });
      const nav = await this.deps.navs.latest({ em }, shareClass.id, at);
      const lockUp = await this.deps.dealing.lockUpOf(em, shareClass);
      const lots = lockUp ? ((await openLotsOf(em, [{ investorId, shareClassId: shareClass.id }])).get(holdingKey(investorId, shareClass.id)) ?? []) : [];
      out.push({
        shareClassId: shareClass.id,
        shareClassName: shareClass.meta.name,
        currency: shareClass.currency,
        ...holdingFigures(new Dec(r.balance), lots, lockUp, nav, at),
        navClose: nav ? decimalString(nav.close) : null,
        frozen: frozen.has(shareClass.id),
      });
    }
    return out;
  }
}
