import Decimal from 'decimal.js';
import { Dec, decimalString } from '../../common/money';
import { IncomePayment } from './distribution-policy.entity';
import type { Distribution, DistributionEntitlement } from './distribution.entity';
import { residueOf } from './entitlement-rule';

/** The totals of a distribution being paid: Σ amounts, Σ tokens (reinvest), and the residue rounding kept back. */
export function totalsOf(d: Distribution, rows: DistributionEntitlement[]): void {
  d.paid = decimalString(rows.reduce<Decimal>((s, r) => s.plus(r.amount ?? 0), new Dec(0)));
  d.residue = residueOf([d.gross], [d.paid]);
  if (d.payment === IncomePayment.reinvest) d.tokens = decimalString(rows.reduce<Decimal>((s, r) => s.plus(r.tokens ?? 0), new Dec(0)));
}

/**
 * The distribution's `paid` and `tokens` count what is paid or on its way. A row that fails is
 * owed still, so it leaves them (`-1`); a failed row sent again re-enters them (`+1`). The residue
 * (what rounding kept back) is untouched either way: the row's rounded amount is the same.
 */
export function countInTotals(d: Distribution, row: DistributionEntitlement, sign: 1 | -1): void {
  d.paid = decimalString(new Dec(d.paid ?? 0).plus(new Dec(row.amount ?? 0).mul(sign)));
  d.tokens = decimalString(new Dec(d.tokens ?? 0).plus(new Dec(row.tokens ?? 0).mul(sign)));
}
