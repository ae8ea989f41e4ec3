import { registerEnumType } from 'type-graphql';
import type { ServiceContext } from '../../access/service-context';
import { Dec, decimalString } from '../../common/money';
import { Nav } from './nav.entity';

/*
 * A jump needs a second person (CSSF Circular 24/856's tolerance thresholds). A NAV within its
 * share class's tolerance of the previous confirmed NAV is confirmed and live at once; one outside
 * it is not a NAV yet: it waits, as a four-eyes request, for a different principal with `approver`
 * to confirm it (then it is inserted, with its original `publishedAt`, and announced) or reject it.
 * So the `nav` table holds confirmed NAVs only, and every read of it — the live NAV, history,
 * pricing, settlement, the book — prices at confirmed NAVs without a filter to forget.
 */

/** `confirmed`: a NAV of the `nav` table. `pending`: `publishNav`'s answer for one that waits for a second principal. */
export enum NavStatus {
  confirmed = 'confirmed',
  pending = 'pending',
}

registerEnumType(NavStatus, { name: 'NavStatus' });

/** What a pending NAV will be once confirmed, and the move that held it: the arguments of its `nav_confirmation` request. */
export interface PendingNavArgs {
  shareClassId: string;
  entryId: string;
  close: string;
  open: string;
  high: string;
  low: string;
  volume: string;
  currency: string;
  /** Epoch ms: the NAV keeps it when confirmed. */
  publishedAt: number;
  previousEntryId: string;
  previousClose: string;
  /** (close / previousClose − 1) × 100, to 4 places; null when the previous close is 0. */
  movePercent: string | null;
  toleranceBps: number;
}

/**
 * Where pending NAVs wait: the approvals inbox (src/modules/approval/nav-confirmations.ts). Declared
 * here, in the nav module's words, so that publishing needs nothing from the modules after it.
 */
export interface NavConfirmations {
  /** Stores a pending NAV as a request by the caller, in ctx's transaction; `CONFLICT` when that entry already waits. Answers the request's id. */
  request(ctx: ServiceContext, nav: PendingNavArgs, reason: string): Promise<string>;
}

/** The move from the previous confirmed close, as a fraction (0.01 = 1%); null when that close is 0 and this one is not. */
export function navMove(previousClose: string, close: string): Dec | null {
  const prev = new Dec(previousClose);
  if (prev.isZero()) return new Dec(close).isZero() ? new Dec(0) : null;
  return new Dec(close).div(prev).minus(1);
}

/** |close / previous − 1| ≤ tolerance: confirmed at once. A move from 0 is never within it. */
export function withinTolerance(move: Dec | null, toleranceBps: number): boolean {
  return move !== null && move.abs().lte(new Dec(toleranceBps).div(10_000));
}

export function movePercent(move: Dec | null): string | null {
  return move === null ? null : decimalString(move.mul(100).toDecimalPlaces(4));
}

/** `publishNav`'s answer for a NAV that waits: the NAV it will be, with the request that holds it. Never persisted. */
export class PendingNav extends Nav {
  approvalRequestId: string;
}
