import { decimalString } from '../../common/money';
import { compensationFacts, planDigest, repricingFacts, type CorrectionPlan } from './nav-correction-plan';

/** A `nav_correction` request's arguments: the NAV, its corrected close and why. */
export interface NavCorrectionArgs {
  navId: string;
  close: string;
  reason: string;
}

/**
 * What a correction will do, bound when it is requested (approval-effect.ts): the NAV and its close
 * now, the corrected close, the error against the tolerance, and what it re-prices and books, by
 * count and by a digest of every row (a new order settled at the NAV meanwhile, a wallet that is no
 * longer the investor's, a holding redeemed away: each changes a digest, and approval is refused).
 */
export interface NavCorrectionEffect {
  kind: 'nav_correction';
  version: 1;
  navId: string;
  shareClassId: string;
  entryId: string;
  close: string;
  correctedClose: string;
  toleranceBps: number;
  errorBps: string;
  aboveTolerance: boolean;
  repriced: number;
  repricedDigest: string;
  compensated: number;
  compensationDigest: string;
}

/** The plan as the effect a request binds. */
export function effectOf(plan: CorrectionPlan): NavCorrectionEffect {
  return {
    kind: 'nav_correction',
    version: 1,
    navId: String(plan.nav.id),
    shareClassId: plan.shareClassId,
    entryId: plan.nav.entryId,
    close: decimalString(plan.nav.close),
    correctedClose: plan.correctedClose,
    toleranceBps: plan.toleranceBps,
    errorBps: plan.errorBps,
    aboveTolerance: plan.aboveTolerance,
    repriced: plan.repricings.length,
    repricedDigest: planDigest(plan.repricings.map(repricingFacts)),
    compensated: plan.compensations.filter((c) => c.action !== null).length,
    compensationDigest: planDigest(plan.compensations.map(compensationFacts)),
  };
}
